// SPDX-License-Identifier: GPL-2.0
/* test fixture: not kernel code */
void hci_conn_del(struct hci_conn *conn)
{
}
