/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Each initcall's level, from the kernel's own table of initcalls: the
 * __initcall* symbols of a System.map or vmlinux.  kd --boot takes the
 * levels from do_initcall_level()'s calls in the log; where that function
 * is inlined (GCC with KFT's plugin), only the symbols still say them.
 */
#ifndef _KFT_INITCALLS_H
#define _KFT_INITCALLS_H

#include <stddef.h>
#include <stdint.h>

#define KFT_INITCALL_UNKNOWN	(-1)	/* not in the table, or ambiguous */
#define KFT_INITCALL_EARLY	(-2)	/* early_initcall() */

struct kft_initcall {
	uint64_t addr;
	const char *name;	/* the symbol; after indexing, the function */
	uint32_t len;		/* of the function's name */
	int8_t level;		/* 0..7, KFT_INITCALL_EARLY, or a marker's */
	int8_t rank;		/* order of markers and entries at one address */
};

struct kft_initcalls {
	struct kft_initcall *v;
	size_t n, cap;
};

/*
 * A symbol of the map or ELF file: kept if it is one of the table's
 * (its name stays the caller's, and must outlive the table).  0, or -1 if
 * out of memory.
 */
int kft_initcalls_note(struct kft_initcalls *ic, uint64_t addr,
		       const char *name);
/* After the last symbol: levels from the sections' bounds. 0 or -1. */
int kft_initcalls_index(struct kft_initcalls *ic);
/* 0..7, KFT_INITCALL_EARLY or KFT_INITCALL_UNKNOWN. */
int kft_initcall_level(const struct kft_initcalls *ic, const char *fn);
void kft_initcalls_free(struct kft_initcalls *ic);

#endif /* _KFT_INITCALLS_H */
