// SPDX-License-Identifier: GPL-2.0
/*
 * kftsites --reach's riscv64 decoder: 16- and 32-bit instructions, the
 * direct branches and jumps with their targets, an AUIPC+JALR pair as one
 * call (struct dstate carries the AUIPC), and the jumps that end
 * straight-line code.  Used by kftsites_code.c; nothing but kftsites_shared.h.
 */
#include "kftsites_shared.h"

/*
 * riscv64: JAL, branches, C.J, C.BEQZ, C.BNEZ, and AUIPC+JALR pairs (whose
 * relocation is at the AUIPC); -1 if the instruction is cut off.
 */
int rv_insn(const uint8_t *p, uint64_t n, uint64_t off, struct dstate *st,
	    struct insn *in)
{
	bool auipc = st->auipc;
	uint32_t x, h;
	unsigned int rd;

	st->auipc = false;
	if (n < 2)
		return -1;
	h = rd16(p, false);
	if ((h & 3) != 3) {
		in->len = 2;
		if ((h & 0xe003) == 0xa001) {		/* c.j */
			in->target = off + sext((h >> 1 & 0x800) | (h >> 7 & 0x10) |
						(h >> 1 & 0x300) | (h << 2 & 0x400) |
						(h >> 1 & 0x40) | (h << 1 & 0x80) |
						(h >> 2 & 0xe) | (h << 3 & 0x20), 12);
			in->branch = in->term = true;
		} else if ((h & 0xc003) == 0xc001) {	/* c.beqz, c.bnez */
			in->target = off + sext((h >> 4 & 0x100) | (h >> 7 & 0x18) |
						(h << 1 & 0xc0) | (h >> 2 & 0x6) |
						(h << 3 & 0x20), 9);
			in->branch = true;
		} else if ((h & 0xf07f) == 0x8002 && (h & 0xf80)) {
			in->term = true;		/* c.jr */
		}
		in->field = off;
		return 0;
	}
	if (n < 4)
		return -1;
	x = rd32(p, false);
	rd = x >> 7 & 31;
	in->len = 4;
	in->field = off;
	switch (x & 0x7f) {
	case 0x6f:					/* jal */
		in->target = off + sext((x >> 11 & 0x100000) | (x >> 20 & 0x7fe) |
					(x >> 9 & 0x800) | (x & 0xff000), 21);
		in->branch = true;
		in->term = !rd;
		break;
	case 0x63:					/* beq, bne, ... */
		in->target = off + sext((x >> 19 & 0x1000) | (x >> 20 & 0x7e0) |
					(x >> 7 & 0x1e) | (x << 4 & 0x800), 13);
		in->branch = true;
		break;
	case 0x17:					/* auipc */
		st->auipc = true;
		st->auipc_rd = rd;
		st->auipc_off = off;
		st->auipc_imm = sext(x & 0xfffff000, 32);
		break;
	case 0x67:					/* jalr */
		if (auipc && st->auipc_rd && st->auipc_rd == (x >> 15 & 31)) {
			in->target = st->auipc_off + st->auipc_imm + sext(x >> 20, 12);
			in->field = st->auipc_off;
			in->branch = true;
		}
		in->term = !rd;
		break;
	}
	return 0;
}
