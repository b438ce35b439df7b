/* SPDX-License-Identifier: GPL-2.0 */
/* Empty: tests/unit/engine/shim.h, force-included, has what is needed. */
