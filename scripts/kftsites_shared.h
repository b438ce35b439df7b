/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What scripts/kftsites' files share.  kftsites is one host program of
 * the kernel build (scripts/Makefile: kftsites-objs), in these files:
 *
 *   kftsites.c        the command line, and the site lister: each object's
 *                     calls to the hooks added as __kft_enter_loc and
 *                     __kft_exit_loc
 *   kftsites_reach.c  --reach: what the hooks reach in vmlinux.o
 *   kftsites_bounded.c --bounded, --bounded-sites: which functions run a
 *                     bounded number of instructions
 *   kftsites_code.c   the model of an object's code both ask questions of
 *                     (kftsites_code.h): functions, branches, alternatives
 *   kftsites_elf.c    an object opened, checked and its symbols indexed,
 *                     for all of them
 *   kftsites_x86.c, kftsites_arm64.c, kftsites_riscv.c, kftsites_arm.c
 *                     the instruction decoders, one an architecture
 *
 * Each uses only those below it: kftsites.c the others, kftsites_reach.c
 * and kftsites_bounded.c the model, the model the object and the
 * decoders; the object and the decoders nothing but this header.  libelf
 * (gelf.h) and libc alone.
 * tests/fuzz/fuzz_kftsites.c links the same files.
 */
#ifndef _SCRIPTS_KFTSITES_SHARED_H
#define _SCRIPTS_KFTSITES_SHARED_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#ifndef R_AARCH64_CALL26
#define R_AARCH64_CALL26	283
#endif
#ifndef R_AARCH64_JUMP26
#define R_AARCH64_JUMP26	282
#endif
#ifndef R_AARCH64_ABS64
#define R_AARCH64_ABS64		257
#endif
#ifndef R_ARM_THM_CALL
#define R_ARM_THM_CALL		10	/* glibc: R_ARM_THM_PC22 */
#endif
#ifndef R_ARM_THM_JUMP24
#define R_ARM_THM_JUMP24	30
#endif
#ifndef R_RISCV_CALL
#define R_RISCV_CALL		18
#endif
#ifndef R_RISCV_CALL_PLT
#define R_RISCV_CALL_PLT	19
#endif
#ifndef R_RISCV_32
#define R_RISCV_32		1
#endif
#ifndef R_RISCV_64
#define R_RISCV_64		2
#endif

enum hook { ENTER, EXIT, NR_HOOKS };

extern const char *const hook_name[NR_HOOKS];

/* A call site: offset in a section, as a symbol and addend. */
struct site {
	size_t sym;
	int64_t addend;
};

struct sites {
	struct site *v;
	size_t n, cap;
};

struct object {
	const char *path;
	Elf *elf;
	GElf_Ehdr eh;
	size_t shstrndx;
	Elf_Scn *symtab;
	size_t symtab_ndx, strtab_ndx, nsyms;
	Elf_Data *syms;
	/*
	 * Built once (index_symbols()), so that the sites of an object with
	 * many sections cost no scan of every symbol per section: each
	 * symbol's section (SHN_XINDEX resolved), each section's section
	 * symbol, and the defined non-weak symbols by section and value.
	 */
	size_t *sym_shndx, *secsym, *by_sec, nby_sec, nsecs;
	bool is64, rela;
	uint64_t size;		/* of the file */
	struct sites sites[NR_HOOKS];
	void *bufs[8];		/* given to libelf until elf_end() */
	int nbufs;
};

/*
 * The object (kftsites_elf.c).  Errors are said on stderr, naming the
 * object: obj_fail() says what, with libelf's reason, and returns -1.
 */
int obj_fail(const struct object *o, const char *what);
int open_object(struct object *o, const char *path, int *fd, bool write);
int index_symbols(struct object *o);
const char *sec_name(const struct object *o, Elf_Scn *scn);
const uint8_t *sec_bytes(Elf_Scn *scn, uint64_t off, size_t len);
enum hook hook_of(const struct object *o, size_t ndx);
size_t section_symbol(const struct object *o, size_t shndx);
int nearest_symbol(const struct object *o, size_t shndx, uint64_t off,
		   size_t *ndx, int64_t *addend);
bool get_reloc(Elf_Data *d, bool rela, size_t i, GElf_Rela *r);

/*
 * The lister (kftsites.c): 0, or -1 having said why.  verbose: say how
 * many sites the object has.  bounded: list only the sites of functions
 * that run at most that many instructions, as __kft_bounded_loc.
 */
int process(const char *path, bool verbose, uint64_t bounded);

/* What --reach is told: functions to stop at, or to allow. */
struct reach_opts {
	char **stop, **allow;
	int nstop, nallow;
	bool insns;		/* --insns instead */
	bool bounded;		/* --bounded instead */
	bool verbose;		/* -v: list every function reached */
};

/*
 * --reach (kftsites_reach.c): 0 clean, 1 instrumented code reached, -1;
 * --insns: 0, or -1.
 */
int reach(const char *path, const struct reach_opts *opt);

/* --bounded (kftsites_bounded.c; x86_64 and arm64): 0, or -1. */
int bounded_list(const char *path);

/*
 * --bounded-sites (kftsites_bounded.c): of the sites the lister found in o,
 * keep those in functions that run at most max instructions, both hooks'
 * in o->sites[ENTER].  x86_64 and arm64; 0, or -1 having said why.
 */
int bounded_sites(struct object *o, uint64_t max);

/*
 * An instruction as --reach and --bounded decode it.  call, indirect, ret
 * and waits: x86_64 and arm64 only, for --bounded.
 */
struct insn {
	uint64_t len;
	bool branch;		/* a direct branch: to target */
	bool term;		/* straight-line code ends after it */
	uint64_t target;	/* in its section */
	uint64_t field;		/* where a relocation would give the target */
	bool thumb;		/* arm: the target is Thumb code */
	bool call;		/* a branch and link, direct or indirect */
	bool indirect;		/* a call or jump through a register or memory */
	bool ret;		/* a return */
	/*
	 * Its time has no bound, or is another's: it waits (hlt, wfi, mwait),
	 * repeats (rep movs), does I/O or system work that may trap to a
	 * hypervisor (in, out, rdmsr, cpuid), or traps (int3, ud2, brk, svc).
	 */
	bool waits;
	/*
	 * arm64's load/store-exclusive retry loop (LL/SC): a load-exclusive,
	 * a store-exclusive's status register + 1, a CBNZ's register + 1
	 * (0: not one).
	 */
	bool excl_load;
	unsigned char excl_status;
	unsigned char cbnz;
};

/* Decoder state: riscv's last auipc. */
struct dstate {
	bool auipc;
	unsigned int auipc_rd;
	uint64_t auipc_off;
	int64_t auipc_imm;
};

/*
 * For the decoders and --reach's tables: a field of bits sign-extended,
 * 16 and 32 bits of either byte order.
 */
static inline int64_t sext(uint64_t v, unsigned int bits)
{
	uint64_t m = 1ULL << (bits - 1);

	v &= (m << 1) - 1;
	return (int64_t)((v ^ m) - m);
}

static inline uint32_t rd16(const uint8_t *p, bool msb)
{
	return msb ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
}

static inline uint32_t rd32(const uint8_t *p, bool msb)
{
	return msb ? rd16(p, true) << 16 | rd16(p + 2, true) :
		     rd16(p + 2, false) << 16 | rd16(p, false);
}

/* The decoders: the instruction at off, p its bytes (n of them left). */
int x86_insn(const uint8_t *p, uint64_t n, uint64_t off, struct insn *in);
void a64_insn(const uint8_t *p, uint64_t off, struct insn *in);
int rv_insn(const uint8_t *p, uint64_t n, uint64_t off, struct dstate *st,
	    struct insn *in);
int arm_insn(const uint8_t *p, uint64_t n, uint64_t off, bool thumb, bool msb,
	     struct insn *in);

#endif /* _SCRIPTS_KFTSITES_SHARED_H */
