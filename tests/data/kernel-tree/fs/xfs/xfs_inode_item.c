// SPDX-License-Identifier: GPL-2.0
/* test fixture: not kernel code */
static int
xfs_inode_item_push(
	struct xfs_log_item	*lip,
	struct list_head	*buffer_list)
{
	return 0;
}
