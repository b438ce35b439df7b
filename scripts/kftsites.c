// SPDX-License-Identifier: GPL-2.0
/*
 * kftsites: list where an object calls KFT's hooks, for the kernel to turn
 * those calls into NOPs while no run is armed (kernel/kft_sites.c).
 *
 * -finstrument-functions makes every instrumented function call
 * __cyg_profile_func_enter() and __cyg_profile_func_exit().  For each call
 * made in an executable section of a relocatable object, this adds the
 * address of the call instruction to __kft_enter_loc or __kft_exit_loc:
 * an array of pointers, each with an absolute relocation against the
 * section symbol (so that it holds after linking).  These are the sections
 * objtool --kft makes on x86; the linker script and the module loader
 * collect them the same way.
 *
 * Calls are told by their relocation type.  A tail call to the exit hook
 * (a branch, not a branch and link) is also the function's return, which
 * the kernel turns into a return while no run is armed: it is listed with
 * the exit's calls.  A conditional one is not: it would stay a call.
 *
 *   arm64   R_AARCH64_CALL26; JUMP26 (B) a tail call
 *   arm     R_ARM_CALL, R_ARM_THM_CALL; JUMP24 (an unconditional B in
 *           ARM), THM_JUMP24 (B.W) a tail call
 *   riscv   R_RISCV_CALL(_PLT) whose JALR links to ra; to x0, a tail call
 *   x86_64  R_X86_64_PLT32/PC32 after a CALL opcode; JMP: a tail call
 *
 * Run by the kernel build on each instrumented object, as recordmcount is
 * (scripts/Makefile.build), on architectures without objtool.  An object
 * that calls no hook, or that has the sections already, is left as it is.
 *
 * This file is the command line and the lister; the object is read by
 * kftsites_elf.c, --reach is kftsites_reach.c and --bounded
 * kftsites_bounded.c, on the model of the code in kftsites_code.c and its
 * decoders (kftsites_shared.h lists the files).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kftsites_shared.h"

static const char *const loc_name[NR_HOOKS] = {
	"__kft_enter_loc", "__kft_exit_loc",
};

/* Keep buf for libelf until the object is written; NULL if out of memory. */
static void *keep(struct object *o, void *buf)
{
	if (buf && o->nbufs < (int)ARRAY_SIZE(o->bufs)) {
		o->bufs[o->nbufs++] = buf;
		return buf;
	}
	free(buf);
	return NULL;
}

static int add_site(struct object *o, enum hook h, size_t sym, int64_t addend)
{
	struct sites *s = &o->sites[h];

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		struct site *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return obj_fail(o, "out of memory");
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n].sym = sym;
	s->v[s->n].addend = addend;
	s->n++;
	return 0;
}

/*
 * Is the relocation at off in text, against hook h, one of h's sites: a
 * call, or a tail call of the exit hook?  -1: malformed.
 */
static int is_site(const struct object *o, Elf_Scn *text, unsigned int type,
		   uint64_t off, enum hook h)
{
	const uint8_t *p;

	switch (o->eh.e_machine) {
	case EM_AARCH64:
		return type == R_AARCH64_CALL26 ||
		       (h == EXIT && type == R_AARCH64_JUMP26);
	case EM_ARM:
		if (type == R_ARM_CALL || type == R_ARM_THM_CALL)
			return 1;
		if (h != EXIT)
			return 0;
		if (type == R_ARM_THM_JUMP24)
			return 1;
		if (type != R_ARM_JUMP24)
			return 0;
		/* B (bits 27-24 1010), its condition (31-28) always. */
		p = sec_bytes(text, off, 4);
		if (!p)
			return -1;
		return p[3] == 0xea;
	case EM_RISCV:
		if (type != R_RISCV_CALL && type != R_RISCV_CALL_PLT)
			return 0;
		/* auipc; jalr rd: bits 7-11 of the jalr are rd, 1 is ra. */
		p = sec_bytes(text, off + 4, 4);
		if (!p)
			return -1;
		switch ((p[0] >> 7 | p[1] << 1) & 0x1f) {
		case 1:
			return 1;
		case 0:
			return h == EXIT;
		}
		return 0;
	case EM_X86_64:
		if (type != R_X86_64_PLT32 && type != R_X86_64_PC32)
			return 0;
		if (!off)
			return -1;
		p = sec_bytes(text, off - 1, 1);
		if (!p)
			return -1;
		return *p == 0xe8 || (h == EXIT && *p == 0xe9);	/* CALL, JMP */
	}
	return 0;
}

/* Collect the calls to the hooks from every relocation section. */
static int find_sites(struct object *o)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(o->elf, scn))) {
		GElf_Shdr sh, tsh;
		Elf_Scn *text;
		Elf_Data *d;
		size_t i, n, secsym;

		if (!gelf_getshdr(scn, &sh))
			return obj_fail(o, "bad section header");
		if ((sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL) ||
		    sh.sh_link != o->symtab_ndx || !sh.sh_entsize)
			continue;
		text = elf_getscn(o->elf, sh.sh_info);
		if (!text || !gelf_getshdr(text, &tsh))
			return obj_fail(o, "relocations for a missing section");
		if (!(tsh.sh_flags & SHF_EXECINSTR))
			continue;
		d = elf_getdata(scn, NULL);
		n = sh.sh_size / sh.sh_entsize;
		/* Sites are written against it: found once per section. */
		secsym = section_symbol(o, sh.sh_info);
		for (i = 0; d && i < n; i++) {
			GElf_Rela r;
			enum hook h;
			size_t sym;
			int64_t addend;
			int call;

			if (!get_reloc(d, sh.sh_type == SHT_RELA, i, &r))
				return obj_fail(o, "bad relocation");
			if (GELF_R_SYM(r.r_info) >= o->nsyms)
				return obj_fail(o, "relocation against a missing symbol");
			h = hook_of(o, GELF_R_SYM(r.r_info));
			if (h == NR_HOOKS)
				continue;
			call = is_site(o, text, GELF_R_TYPE(r.r_info), r.r_offset, h);
			if (call < 0)
				return obj_fail(o, "relocation outside its section");
			if (!call)
				continue;
			/* x86: the relocation is the CALL's operand. */
			if (o->eh.e_machine == EM_X86_64)
				r.r_offset--;
			sym = secsym;
			addend = r.r_offset;
			if (!secsym &&
			    nearest_symbol(o, sh.sh_info, r.r_offset, &sym, &addend)) {
				fprintf(stderr,
					"kftsites: %s: no symbol to list the call at %s+0x%llx\n",
					o->path, sec_name(o, text),
					(unsigned long long)r.r_offset);
				return -1;
			}
			if (add_site(o, h, sym, addend))
				return -1;
		}
	}
	return 0;
}

/* Append name to the section name table; its offset, or 0. */
static size_t add_name(struct object *o, const char *name)
{
	Elf_Scn *scn = elf_getscn(o->elf, o->shstrndx);
	size_t len = strlen(name) + 1, off;
	Elf_Data *d;
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh))
		return 0;
	d = elf_newdata(scn);
	if (!d)
		return 0;
	d->d_buf = keep(o, strdup(name));
	d->d_size = len;
	d->d_align = 1;
	d->d_type = ELF_T_BYTE;
	off = sh.sh_size;
	sh.sh_size += len;
	if (!d->d_buf || !gelf_update_shdr(scn, &sh))
		return 0;
	return off;
}

static Elf_Scn *new_section(struct object *o, const char *name, GElf_Shdr *sh,
			    void *buf, size_t size, Elf_Type type)
{
	Elf_Scn *scn = elf_newscn(o->elf);
	Elf_Data *d;

	if (!scn)
		return NULL;
	sh->sh_name = add_name(o, name);
	d = elf_newdata(scn);
	if (!sh->sh_name || !d)
		return NULL;
	d->d_buf = buf;
	d->d_size = size;
	d->d_type = type;
	d->d_align = sh->sh_addralign;
	sh->sh_size = size;
	return gelf_update_shdr(scn, sh) ? scn : NULL;
}

static unsigned int abs_type(const struct object *o)
{
	switch (o->eh.e_machine) {
	case EM_AARCH64:
		return R_AARCH64_ABS64;
	case EM_ARM:
		return R_ARM_ABS32;
	case EM_RISCV:
		return o->is64 ? R_RISCV_64 : R_RISCV_32;
	default:
		return R_X86_64_64;
	}
}

/* A table of sites, name, and its relocation section. */
static int write_table(struct object *o, const char *name,
		       const struct sites *s)
{
	size_t ptr = o->is64 ? 8 : 4, i;
	size_t relsz = o->rela ? gelf_fsize(o->elf, ELF_T_RELA, 1, EV_CURRENT) :
				 gelf_fsize(o->elf, ELF_T_REL, 1, EV_CURRENT);
	uint8_t *table = keep(o, calloc(s->n, ptr));
	void *rels = keep(o, calloc(s->n, relsz));
	char relname[64];
	GElf_Shdr sh = { 0 };
	Elf_Scn *loc, *rel;
	Elf_Data *d;

	if (!table || !rels)
		return obj_fail(o, "out of memory");
	/* REL keeps the addend in the word it relocates. */
	for (i = 0; !o->rela && i < s->n; i++) {
		uint32_t a = s->v[i].addend;

		if (o->eh.e_ident[EI_DATA] == ELFDATA2MSB)
			a = __builtin_bswap32(a);
		memcpy(table + i * ptr, &a, 4);
	}
	sh.sh_type = SHT_PROGBITS;
	sh.sh_flags = SHF_ALLOC;
	sh.sh_addralign = ptr;
	sh.sh_entsize = ptr;
	loc = new_section(o, name, &sh, table, s->n * ptr, ELF_T_BYTE);
	if (!loc)
		return obj_fail(o, "cannot add a section");

	snprintf(relname, sizeof(relname), "%s%s", o->rela ? ".rela" : ".rel",
		 name);
	memset(&sh, 0, sizeof(sh));
	sh.sh_type = o->rela ? SHT_RELA : SHT_REL;
	sh.sh_flags = SHF_INFO_LINK;
	sh.sh_link = o->symtab_ndx;
	sh.sh_info = elf_ndxscn(loc);
	sh.sh_addralign = ptr;
	sh.sh_entsize = relsz;
	rel = new_section(o, relname, &sh, rels, s->n * relsz,
			  o->rela ? ELF_T_RELA : ELF_T_REL);
	if (!rel)
		return obj_fail(o, "cannot add a section");
	d = elf_getdata(rel, NULL);
	for (i = 0; i < s->n; i++) {
		GElf_Rela r = {
			.r_offset = i * ptr,
			.r_info = GELF_R_INFO(s->v[i].sym, abs_type(o)),
			.r_addend = s->v[i].addend,
		};
		GElf_Rel rl = { .r_offset = r.r_offset, .r_info = r.r_info };

		if (o->rela ? !gelf_update_rela(d, i, &r) :
			      !gelf_update_rel(d, i, &rl))
			return obj_fail(o, "cannot write a relocation");
	}
	return 0;
}

/*
 * 1 if the object has the table name (or either hook's, if NULL), 0 if
 * not, -1 if its names are bad.
 */
static int has_tables(const struct object *o, const char *table)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(o->elf, scn))) {
		const char *name = sec_name(o, scn);

		if (!name)
			return obj_fail(o, "bad section name");
		if (table ? !strcmp(name, table) :
		    !strcmp(name, loc_name[ENTER]) || !strcmp(name, loc_name[EXIT]))
			return 1;
	}
	return 0;
}

/*
 * List an object's sites as __kft_enter_loc and __kft_exit_loc; or, with
 * bounded (--bounded-sites), those of functions that run at most that
 * many instructions (kftsites_bounded.c), both hooks', as __kft_bounded_loc.
 */
int process(const char *path, bool verbose, uint64_t bounded)
{
	static const char bounded_loc[] = "__kft_bounded_loc";
	struct object o = { .path = path };
	int fd, ret = -1, h;

	if (open_object(&o, path, &fd, true))
		goto out;
	h = has_tables(&o, bounded ? bounded_loc : NULL);
	if (h < 0)
		goto out;
	if (!o.symtab || h) {
		ret = 0;
		goto out;
	}
	if (index_symbols(&o) || find_sites(&o) ||
	    (bounded && bounded_sites(&o, bounded)))
		goto out;
	if (verbose && bounded)
		printf("%s: %zu sites in functions of at most %llu instructions\n",
		       path, o.sites[ENTER].n, (unsigned long long)bounded);
	else if (verbose)
		printf("%s: %zu enter, %zu exit sites\n", path,
		       o.sites[ENTER].n, o.sites[EXIT].n);
	for (h = 0; h < NR_HOOKS; h++)
		if (o.sites[h].n &&
		    write_table(&o, bounded ? bounded_loc : loc_name[h], &o.sites[h]))
			goto out;
	/*
	 * elfutils writes e_shnum headers from the array it read, sized for
	 * the old count, unless the Elf is dirty, which a layout that keeps
	 * e_shoff where it was does not make it: mark it so.
	 */
	if ((o.sites[ENTER].n || o.sites[EXIT].n) &&
	    (elf_flagelf(o.elf, ELF_C_SET, ELF_F_DIRTY) == 0 ||
	     elf_update(o.elf, ELF_C_WRITE) < 0)) {
		obj_fail(&o, "cannot write");
		goto out;
	}
	ret = 0;
out:
	for (h = 0; h < NR_HOOKS; h++)
		free(o.sites[h].v);
	free(o.sym_shndx);
	free(o.secsym);
	free(o.by_sec);
	if (o.elf)
		elf_end(o.elf);
	while (o.nbufs)
		free(o.bufs[--o.nbufs]);
	if (fd >= 0 && close(fd) && !ret) {
		fprintf(stderr, "kftsites: %s: %s\n", path, strerror(errno));
		ret = -1;
	}
	return ret;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: kftsites [-v] OBJECT...\n"
		"       kftsites --reach [-v] [--stop FUNC]... [--allow FUNC]... OBJECT...\n"
		"       kftsites --bounded OBJECT...\n"
		"       kftsites --bounded-sites MAX [-v] OBJECT...\n"
		"Add __kft_enter_loc and __kft_exit_loc, the addresses of the calls\n"
		"to KFT's hooks, to each relocatable ELF object (arm64, arm, riscv,\n"
		"x86_64).  Objects that call no hook, or have the sections, are left\n"
		"as they are.\n"
		"With --reach, change nothing: follow the direct calls and jumps from\n"
		"the hooks through the object (vmlinux.o), and fail naming the path to\n"
		"each function reached that calls a hook.\n"
		"With --bounded, change nothing: print each function that calls a\n"
		"hook, and how many instructions a call of it runs at most (its own\n"
		"and its callees'), or '-' and why it has no such bound (a loop, a\n"
		"call through a pointer, an instruction that waits...), then a\n"
		"summary line (x86_64 and arm64).\n"
		"With --bounded-sites MAX, add __kft_bounded_loc instead: the calls\n"
		"to the hooks in functions that run at most MAX instructions (to\n"
		"vmlinux.o, once; x86_64 and arm64).\n"
		"\n"
		"  -v, --verbose   say how many sites each object has; with --reach,\n"
		"                  list every function reached and what reached it\n"
		"  --stop FUNC     FUNC must not call a hook, but what it calls is not\n"
		"                  followed\n"
		"  --allow FUNC    the hooks may reach FUNC: neither checked nor followed\n"
		"  --insns         print where each function's instructions start, as\n"
		"                  --reach decodes them (for tests)\n"
		"  -h, --help      this help\n");
}

int main(int argc, char **argv)
{
	int i = 1, ret = 0;
	bool check = false;
	uint64_t bounded = 0;
	char *end;
	struct reach_opts opt = {
		.stop = calloc(argc, sizeof(char *)),
		.allow = calloc(argc, sizeof(char *)),
	};

	if (!opt.stop || !opt.allow) {
		fprintf(stderr, "kftsites: out of memory\n");
		ret = 1;
		goto out;
	}
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			opt.verbose = true;
		} else if (!strcmp(argv[i], "--reach")) {
			check = true;
		} else if (!strcmp(argv[i], "--insns")) {
			opt.insns = true;
		} else if (!strcmp(argv[i], "--bounded")) {
			opt.bounded = true;
		} else if (!strcmp(argv[i], "--bounded-sites") && i + 1 < argc) {
			errno = 0;
			bounded = strtoull(argv[++i], &end, 10);
			if (errno || *end || end == argv[i] || !bounded ||
			    argv[i][0] == '-') {
				fprintf(stderr, "kftsites: --bounded-sites %s: not a number of instructions (1 or more)\n",
					argv[i]);
				ret = 2;
				goto out;
			}
		} else if (!strcmp(argv[i], "--stop") && i + 1 < argc) {
			opt.stop[opt.nstop++] = argv[++i];
		} else if (!strcmp(argv[i], "--allow") && i + 1 < argc) {
			opt.allow[opt.nallow++] = argv[++i];
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			goto out;
		} else {
			if (strcmp(argv[i], "--")) {
				usage(stderr);
				ret = 2;
				goto out;
			}
			i++;
			break;
		}
	}
	if (i == argc || ((opt.nstop || opt.nallow) && !check) ||
	    check + opt.insns + opt.bounded + !!bounded > 1 ||
	    (opt.bounded && opt.verbose)) {
		usage(stderr);
		ret = 2;
		goto out;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		fprintf(stderr, "kftsites: libelf: %s\n", elf_errmsg(-1));
		ret = 1;
		goto out;
	}
	for (; i < argc; i++)
		if (opt.bounded ? bounded_list(argv[i]) :
		    check || opt.insns ? reach(argv[i], &opt) :
		    process(argv[i], opt.verbose, bounded))
			ret = 1;
out:
	free(opt.stop);
	free(opt.allow);
	return ret;
}
