// SPDX-License-Identifier: GPL-2.0
/* test fixture: not kernel code */
static int xfsaild(void *data)
{
	return xfs_inode_item_push(data, NULL);
}
