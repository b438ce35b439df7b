/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel symbol tables for the KFT host tools: System.map, a saved
 * /proc/kallsyms (module symbols included), or a vmlinux ELF file.
 * Only function symbols are kept, and the table of initcalls' levels.
 */
#ifndef _KFT_SYMTAB_H
#define _KFT_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "initcalls.h"

struct kft_sym {
	uint64_t addr;
	uint32_t size;		/* 0: unknown, up to the next symbol */
	uint32_t name_len;
	const char *name;
	const char *module;	/* NULL for the kernel image */
};

struct kft_symtab {
	struct kft_sym *syms;	/* by address */
	size_t n;
	struct kft_sym **by_name;
	char *text;		/* the map file, names point into it */
	int64_t bias;		/* added to every address (KASLR offset) */
	/* bucket[k]: first symbol at or above lo + (k << shift) */
	uint32_t *bucket;
	uint32_t nbuckets;
	uint64_t lo;
	unsigned int shift;
	struct kft_initcalls initcalls;	/* each initcall's level */
};

/* 0 on success; on failure -1 and a message in err. */
int kft_symtab_load_map(struct kft_symtab *st, const char *path,
			char *err, size_t errlen);
int kft_symtab_load_elf(struct kft_symtab *st, const char *path,
			char *err, size_t errlen);
/* Whichever of map (System.map, kallsyms) and elf (vmlinux) is given. */
int kft_symtab_load(struct kft_symtab *st, const char *map, const char *elf,
		    char *err, size_t errlen);
void kft_symtab_free(struct kft_symtab *st);

/* The function holding addr, and the offset into it; NULL if none. */
const struct kft_sym *kft_symtab_find(const struct kft_symtab *st,
				      uint64_t addr, uint64_t *off);
/* Address of a name: 0, -ENOENT, or -ENOTUNIQ (several functions). */
int kft_symtab_addr(const struct kft_symtab *st, const char *name,
		    uint64_t *addr);
/* The address of a symbol, if present (used to find the KASLR offset). */
const struct kft_sym *kft_symtab_named(const struct kft_symtab *st,
				       const char *name);

/*
 * A header line of a KFT log, as every tool reads it: true for the dashed
 * line that ends the header.  "Kernel text base 0xADDR" gives st (unless
 * NULL) the KASLR offset of the log's kernel against st's _text.
 */
bool kft_log_header_line(const char *line, struct kft_symtab *st);

#endif /* _KFT_SYMTAB_H */
