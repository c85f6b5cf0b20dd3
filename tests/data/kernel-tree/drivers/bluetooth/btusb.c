// SPDX-License-Identifier: GPL-2.0
/* test fixture: not kernel code */
static void btusb_disconnect(struct usb_interface *intf)
{
}
