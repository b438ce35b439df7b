// SPDX-License-Identifier: GPL-2.0
/*
 * kftsites --reach's arm decoder, for ARM and Thumb code (the caller
 * tells which, from the mapping symbols), little- or big-endian: the
 * direct branches with their targets and instruction set, and the
 * returns that end straight-line code.  Used by kftsites_code.c, also to
 * read a REL branch's displacement; nothing but kftsites_shared.h.
 */
#include "kftsites_shared.h"

/*
 * arm: B, BL, BLX and, in Thumb, B.W, B<c>.W, CBZ, CBNZ; BX and POP {pc}
 * end code.  -1 if the instruction is cut off.
 */
int arm_insn(const uint8_t *p, uint64_t n, uint64_t off, bool thumb, bool msb,
	     struct insn *in)
{
	uint32_t x, h1, h2;

	in->field = off;
	if (n < (thumb ? 2 : 4))
		return -1;
	if (!thumb) {
		x = rd32(p, msb);
		in->len = 4;
		if ((x & 0x0e000000) == 0x0a000000) {
			in->target = off + 8 + sext(x, 24) * 4;
			if (x >> 28 == 0xf) {		/* blx: H */
				in->target += x >> 23 & 2;
				in->thumb = true;
			}
			in->branch = true;
			in->term = x >> 24 == 0xea;
		} else {
			in->term = (x & 0xfffffff0) == 0xe12fff10 ||	/* bx */
				   (x & 0xffff8000) == 0xe8bd8000;	/* pop {..., pc} */
		}
		return 0;
	}
	h1 = rd16(p, msb);
	in->len = 2;
	in->thumb = true;
	if (h1 >> 11 >= 0x1d) {				/* 32-bit */
		uint32_t s, j1, j2;

		if (n < 4)
			return -1;
		h2 = rd16(p + 2, msb);
		in->len = 4;
		if ((h1 & 0xf800) != 0xf000 || !(h2 & 0x8000))
			return 0;
		s = h1 >> 10 & 1;
		j1 = h2 >> 13 & 1;
		j2 = h2 >> 11 & 1;
		if (h2 & 0x1000 || (h2 & 0x4001) == 0x4000) {	/* bl, b.w, blx */
			uint64_t base = off + 4;

			if (!(h2 & 0x1000)) {
				base &= ~3ULL;		/* blx: to arm */
				in->thumb = false;
			}
			in->target = base + sext(s << 24 | (!(j1 ^ s)) << 23 |
						 (!(j2 ^ s)) << 22 | (h1 & 0x3ff) << 12 |
						 (h2 & 0x7ff) << 1, 25);
			in->branch = true;
			in->term = (h2 & 0x5000) == 0x1000;
		} else if (!(h2 & 0x5000) && (h1 >> 7 & 7) != 7) {	/* b<c>.w */
			in->target = off + 4 + sext(s << 20 | j2 << 19 | j1 << 18 |
						    (h1 & 0x3f) << 12 |
						    (h2 & 0x7ff) << 1, 21);
			in->branch = true;
		}
		return 0;
	}
	if ((h1 & 0xf000) == 0xd000 && (h1 >> 8 & 0xf) < 0xe) {	/* b<c> */
		in->target = off + 4 + sext(h1, 8) * 2;
		in->branch = true;
	} else if ((h1 & 0xf800) == 0xe000) {			/* b */
		in->target = off + 4 + sext(h1, 11) * 2;
		in->branch = in->term = true;
	} else if ((h1 & 0xf500) == 0xb100) {			/* cbz, cbnz */
		in->target = off + 4 + ((h1 >> 3 & 0x40) | (h1 >> 2 & 0x3e));
		in->branch = true;
	} else {
		in->term = (h1 & 0xff87) == 0x4700 ||		/* bx */
			   (h1 & 0xff00) == 0xbd00;		/* pop {..., pc} */
	}
	return 0;
}
