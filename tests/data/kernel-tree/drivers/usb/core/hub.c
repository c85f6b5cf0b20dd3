// SPDX-License-Identifier: GPL-2.0
/* test fixture: not kernel code */
void usb_disconnect(struct usb_device **pdev)
{
}

static void hub_event(struct work_struct *work)
{
}
