/* SPDX-License-Identifier: GPL-2.0 */
#include "../kft_host.h"
