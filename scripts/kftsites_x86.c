// SPDX-License-Identifier: GPL-2.0
/*
 * kftsites --reach's x86_64 decoder: each instruction's length (prefixes,
 * the 0f, VEX and EVEX maps, ModRM, SIB, displacement, immediate), its
 * direct branch's target, and whether straight-line code ends after it.
 * Used by kftsites_code.c; tests/tools/test_kftreach.sh checks it
 * against objdump.  Nothing but kftsites_shared.h.
 */
#include "kftsites_shared.h"

/*
 * x86_64 opcodes: does a ModRM byte follow, what immediate, is it a
 * prefix, a direct branch (its immediate the displacement), or not an
 * instruction (the escapes 0f, c4, c5, 62 and REX are taken apart first).
 */
enum {
	XI_B = 1, XI_W, XI_Z, XI_WB, XI_MOFFS, XI_V, XI_GRP3,	/* immediates */
	XM = 0x10,		/* ModRM */
	XP = 0x20,		/* prefix */
	XX = 0x40,		/* not an instruction in 64-bit mode */
	XJ = 0x80,		/* direct branch: rel8 (XI_B) or rel32 (XI_Z) */
};

#define M_	XM
#define MB	(XM | XI_B)
#define MZ	(XM | XI_Z)
#define B_	XI_B
#define Z_	XI_Z
#define JB	(XJ | XI_B)
#define JZ	(XJ | XI_Z)
#define X_	XX
#define P_	XP
static const uint8_t x86_op1[256] = {
	M_, M_, M_, M_, B_, Z_, X_, X_, M_, M_, M_, M_, B_, Z_, X_, X_,	/* 00 */
	M_, M_, M_, M_, B_, Z_, X_, X_, M_, M_, M_, M_, B_, Z_, X_, X_,	/* 10 */
	M_, M_, M_, M_, B_, Z_, P_, X_, M_, M_, M_, M_, B_, Z_, P_, X_,	/* 20 */
	M_, M_, M_, M_, B_, Z_, P_, X_, M_, M_, M_, M_, B_, Z_, P_, X_,	/* 30 */
	X_, X_, X_, X_, X_, X_, X_, X_, X_, X_, X_, X_, X_, X_, X_, X_,	/* 40 REX */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,			/* 50 */
	X_, X_, X_, M_, P_, P_, P_, P_, Z_, MZ, B_, MB, 0, 0, 0, 0,	/* 60 */
	JB, JB, JB, JB, JB, JB, JB, JB, JB, JB, JB, JB, JB, JB, JB, JB,	/* 70 */
	MB, MZ, X_, MB, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_,	/* 80 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, X_, 0, 0, 0, 0, 0,		/* 90 */
	XI_MOFFS, XI_MOFFS, XI_MOFFS, XI_MOFFS, 0, 0, 0, 0,		/* a0 */
	B_, Z_, 0, 0, 0, 0, 0, 0,
	B_, B_, B_, B_, B_, B_, B_, B_,					/* b0 */
	XI_V, XI_V, XI_V, XI_V, XI_V, XI_V, XI_V, XI_V,
	MB, MB, XI_W, 0, X_, X_, MB, MZ, XI_WB, 0, XI_W, 0, 0, B_, X_, 0, /* c0 */
	M_, M_, M_, M_, X_, X_, X_, 0, M_, M_, M_, M_, M_, M_, M_, M_,	/* d0 */
	JB, JB, JB, JB, B_, B_, B_, B_, JZ, JZ, X_, JB, 0, 0, 0, 0,	/* e0 */
	P_, 0, P_, P_, 0, 0, XM | XI_GRP3, XM | XI_GRP3,		/* f0 */
	0, 0, 0, 0, 0, 0, M_, M_,
};

/* After 0f (0f 38 and 0f 3a are taken apart first). */
static const uint8_t x86_op2[256] = {
	M_, M_, M_, M_, X_, 0, 0, 0, 0, 0, X_, 0, X_, M_, 0, MB,	/* 00 */
	M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_,	/* 10 */
	M_, M_, M_, M_, X_, X_, X_, X_, M_, M_, M_, M_, M_, M_, M_, M_,	/* 20 */
	0, 0, 0, 0, 0, 0, X_, 0, X_, X_, X_, X_, X_, X_, X_, X_,	/* 30 */
	M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_,	/* 40 */
	M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_,	/* 50 */
	M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_,	/* 60 */
	MB, MB, MB, MB, M_, M_, M_, 0, M_, M_, X_, X_, M_, M_, M_, M_,	/* 70 */
	JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ,	/* 80 */
	M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_,	/* 90 */
	0, 0, 0, M_, MB, M_, X_, X_, 0, 0, 0, M_, MB, M_, M_, M_,	/* a0 */
	M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, MB, M_, M_, M_, M_, M_,	/* b0 */
	M_, M_, MB, M_, MB, MB, MB, M_, 0, 0, 0, 0, 0, 0, 0, 0,		/* c0 */
	M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_,	/* d0 */
	M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_,	/* e0 */
	M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_,	/* f0 */
};
#undef M_
#undef MB
#undef MZ
#undef B_
#undef Z_
#undef JB
#undef JZ
#undef X_
#undef P_

/*
 * --bounded's view of an instruction (map 0: one-byte opcodes, 1: after
 * 0f): calls, indirect branches, returns, and what waits or traps - hlt,
 * int, iret, in, out, rep string instructions; syscall, ud2, wbinvd,
 * rdmsr, wrmsr, rdpmc, cpuid, mov to control and debug registers, the system
 * groups 0f 00 and 0f 01 (lgdt, monitor, mwait, stac, clac...), umwait and
 * tpause.
 */
static void x86_kind(struct insn *in, unsigned int map, unsigned int op,
		     unsigned int m, bool modrm, bool rep, bool o16)
{
	unsigned int reg = (m >> 3) & 7;

	if (map == 0) {
		bool group5 = op == 0xff && modrm;

		in->call = op == 0xe8 || (group5 && (reg == 2 || reg == 3));
		in->indirect = group5 && reg >= 2 && reg <= 5;
		in->ret = op == 0xc3 || op == 0xc2 || op == 0xcb || op == 0xca;
		in->waits = op == 0xf4 || op == 0xcc || op == 0xcd ||
			    op == 0xf1 || op == 0xcf ||
			    (op >= 0x6c && op <= 0x6f) ||
			    (op >= 0xe4 && op <= 0xe7) ||
			    (op >= 0xec && op <= 0xef) ||
			    (rep && ((op >= 0xa4 && op <= 0xa7) ||
				     (op >= 0xaa && op <= 0xaf)));
	} else if (map == 1) {
		in->waits = op <= 0x01 || (op >= 0x05 && op <= 0x09) ||
			    op == 0x0b || (op >= 0x20 && op <= 0x23) ||
			    (op >= 0x30 && op <= 0x37 && op != 0x31) || op == 0x78 ||
			    op == 0x79 || op == 0xa2 || op == 0xb9 ||
			    op == 0xff ||
			    (op == 0xae && m >> 6 == 3 && reg == 6 &&
			     (rep || o16));
	}
}

/* x86_64: the instruction at off (n bytes left); -1 if it cannot be one. */
int x86_insn(const uint8_t *p, uint64_t n, uint64_t off, struct insn *in)
{
	bool o16 = false, a32 = false, w = false, rep = false;
	unsigned int op, f, map = 0, m = 0, i = 0, imm = 0, disp = 0;

	if (n > 15)
		n = 15;
	for (;; i++) {
		if (i >= n)
			return -1;
		op = p[i];
		if ((op & 0xf0) == 0x40) {		/* REX */
			w = op & 8;
		} else if (x86_op1[op] == XP) {
			w = false;			/* REX counts only last */
			o16 |= op == 0x66;
			a32 |= op == 0x67;
			rep |= op == 0xf2 || op == 0xf3;
		} else {
			break;
		}
	}
	i++;
	if (op == 0x0f) {
		if (i >= n)
			return -1;
		op = p[i++];
		map = 1;
		if (op == 0x38 || op == 0x3a) {
			f = XM | (op == 0x3a ? XI_B : 0);
			map = 2;
			if (i++ >= n)
				return -1;
		} else {
			f = x86_op2[op];
		}
	} else if (op == 0xc4 || op == 0xc5 || op == 0x62) {	/* VEX, EVEX */
		unsigned int len = op == 0xc5 ? 1 : op == 0xc4 ? 2 : 3, vmap;

		if (i + len >= n)
			return -1;
		vmap = op == 0xc5 ? 1 : p[i] & (op == 0x62 ? 7 : 0x1f);
		f = XM;
		if (op != 0x62 && vmap == 1 && p[i + len] == 0x77)
			f = 0;				/* vzeroupper, vzeroall */
		op = p[i + len];
		i += len + 1;
		if (vmap == 3 || (vmap == 1 && ((op >= 0x70 && op <= 0x73) ||
						op == 0xc2 ||
						(op >= 0xc4 && op <= 0xc6))))
			f |= XI_B;
		map = 2;
	} else {
		f = x86_op1[op];
	}
	if (f & XX)
		return -1;
	if (f & XM) {
		if (i >= n)
			return -1;
		m = p[i++];
		if (m >> 6 != 3) {
			if ((m & 7) == 4) {		/* SIB */
				if (i >= n)
					return -1;
				if (m >> 6 == 0 && (p[i] & 7) == 5)
					disp = 4;
				i++;
			}
			if (m >> 6 == 0 && (m & 7) == 5)
				disp = 4;		/* RIP-relative */
			else if (m >> 6 == 1)
				disp = 1;
			else if (m >> 6 == 2)
				disp = 4;
		}
		i += disp;
	}
	switch (f & 0x0f) {
	case XI_B:
		imm = 1;
		break;
	case XI_W:
		imm = 2;
		break;
	case XI_Z:			/* a branch's rel32 stays 4 with 66 */
		imm = o16 && !(f & XJ) ? 2 : 4;
		break;
	case XI_WB:
		imm = 3;
		break;
	case XI_MOFFS:
		imm = a32 ? 4 : 8;
		break;
	case XI_V:
		imm = w ? 8 : o16 ? 2 : 4;
		break;
	case XI_GRP3:			/* test r/m, imm: f6 /0, /1, f7 /0, /1 */
		if (((m >> 3) & 7) < 2)
			imm = op == 0xf6 ? 1 : o16 ? 2 : 4;
		break;
	}
	i += imm;
	if (i > n)
		return -1;
	in->len = i;
	if (f & XJ) {
		int64_t d = imm == 1 ? (int8_t)p[i - 1] :
			    (int32_t)((uint32_t)p[i - 4] | (uint32_t)p[i - 3] << 8 |
				      (uint32_t)p[i - 2] << 16 | (uint32_t)p[i - 1] << 24);

		in->branch = true;
		in->target = off + i + d;
		in->field = off + i - imm;
	}
	/* ret, jmp, int3, ud2, jmp *r/m */
	in->term = (map == 0 && (op == 0xc3 || op == 0xc2 || op == 0xcb ||
				 op == 0xca || op == 0xcc || op == 0xe9 ||
				 op == 0xeb ||
				 (op == 0xff && ((m >> 3) & 7) >= 4 &&
				  ((m >> 3) & 7) <= 5))) ||
		   (map == 1 && op == 0x0b);
	x86_kind(in, map, op, m, (f & XM) != 0, rep, o16);
	return 0;
}
