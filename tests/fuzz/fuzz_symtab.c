// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the symbol-table readers (scripts/kft/symtab.c):
 * System.map and /proc/kallsyms text, and vmlinux ELF files.  What loads
 * must answer lookups consistently: the symbol found for an address is at
 * or below it, a name's address is a symbol of that name, and an initcall's
 * level is the one its table entry has.
 */
#define _GNU_SOURCE	/* memfd_create() */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_memfile.h"
#include "kft/symtab.h"

static void check(const struct kft_symtab *st)
{
	for (size_t i = 0; i < st->n && i < 64; i++) {
		const struct kft_sym *s = &st->syms[i], *f;
		uint64_t off, addr;

		f = kft_symtab_find(st, s->addr + st->bias + 1, &off);
		if (f && f->addr + st->bias > s->addr + st->bias + 1)
			abort();
		if (!kft_symtab_addr(st, s->name, &addr)) {
			const struct kft_sym *n = kft_symtab_named(st, s->name);

			if (!n || strcmp(n->name, s->name))
				abort();
		}
	}
	for (size_t i = 0; i < st->initcalls.n && i < 64; i++) {
		const struct kft_initcall *e = &st->initcalls.v[i];
		char *fn = strndup(e->name, e->len);

		if (!fn)
			abort();
		if (e->level < KFT_INITCALL_EARLY || e->level > 7 ||
		    kft_initcall_level(&st->initcalls, fn) != e->level)
			abort();
		free(fn);
	}
	{
		uint64_t off;

		kft_symtab_find(st, 0, &off);
		kft_symtab_find(st, UINT64_MAX, &off);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct memfile f;
	struct kft_symtab st;
	char err[512];

	memfile_put(&f, "symtab", data, size);
	if (!kft_symtab_load_map(&st, f.path, err, sizeof(err))) {
		check(&st);
		kft_symtab_free(&st);
	} else if (!err[0]) {
		abort();	/* a refusal says why */
	}
	if (!kft_symtab_load_elf(&st, f.path, err, sizeof(err))) {
		check(&st);
		kft_symtab_free(&st);
	} else if (!err[0]) {
		abort();
	}
	return 0;
}
