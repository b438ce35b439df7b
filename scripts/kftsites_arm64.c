// SPDX-License-Identifier: GPL-2.0
/*
 * kftsites --reach's arm64 decoder: the direct branches and their
 * targets, and the returns and indirect branches that end straight-line
 * code.  Used by kftsites_code.c; nothing but kftsites_shared.h.
 */
#include "kftsites_shared.h"

/*
 * --bounded's view: the branches through a register (BR, BLR, and their
 * pointer-authenticated forms), returns (RET, RETAA, RETAB), and what
 * waits or traps - WFI, WFE, WFIT, WFET, the exception generators (SVC,
 * HVC, SMC, BRK, HLT), ERET, UDF.
 */
static void a64_kind(uint32_t x, struct insn *in)
{
	unsigned int opc = (x >> 21) & 0xf;

	if ((x & 0xfe000000) == 0xd6000000) {	/* branch (register) */
		in->indirect = opc == 0 || opc == 1 || opc == 8 || opc == 9;
		in->call = in->indirect && (opc & 1);
		in->ret = opc == 2;
		in->waits = opc == 4 || opc == 5;
	}
	in->waits |= (x & 0xff000000) == 0xd4000000 || x == 0xd503205f ||
		     x == 0xd503207f || (x & 0xffffffc0) == 0xd5031000 ||
		     (x & 0xffff0000) == 0;
}

/*
 * --bounded's view of an LL/SC retry loop: the load-exclusives (LDXR,
 * LDAXR, their byte, halfword and pair forms), the store-exclusives and
 * their status register (STXR, STLXR, ...; not CASP, whose encoding
 * neighbours STXP's), and CBNZ's register.
 */
static void a64_exclusive(uint32_t x, struct insn *in)
{
	bool pair = x & (1U << 21);

	if ((x & 0x3f800000) == 0x08000000 && (!pair || (x >> 31))) {
		if (x & (1U << 22))
			in->excl_load = true;
		else
			in->excl_status = ((x >> 16) & 0x1f) + 1;
	}
	if ((x & 0x7f000000) == 0x35000000)
		in->cbnz = (x & 0x1f) + 1;
}

/* arm64: B, BL, B.cond, CBZ, CBNZ, TBZ, TBNZ; RET and BR end code. */
void a64_insn(const uint8_t *p, uint64_t off, struct insn *in)
{
	uint32_t x = rd32(p, false);
	int64_t d;

	in->len = 4;
	a64_kind(x, in);
	a64_exclusive(x, in);
	if ((x & 0x7c000000) == 0x14000000) {
		d = sext(x, 26) * 4;
		in->term = !(x >> 31);
		in->call = x >> 31;
	} else if ((x & 0xff000010) == 0x54000000 ||
		   (x & 0x7e000000) == 0x34000000) {
		d = sext(x >> 5, 19) * 4;
	} else if ((x & 0x7e000000) == 0x36000000) {
		d = sext(x >> 5, 14) * 4;
	} else {
		in->term = (x & 0xfffffc1f) == 0xd65f0000 ||
			   (x & 0xfffffc1f) == 0xd61f0000;
		return;
	}
	in->branch = true;
	in->target = off + d;
	in->field = off;
}
