// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel symbol tables for the KFT host tools.  A map is read whole and its
 * names are used in place; lookups are binary searches.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "crlines.h"
#include "slurp.h"
#include "symtab.h"

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int push(struct kft_symtab *st, size_t *cap, uint64_t addr,
		uint64_t size, const char *name, const char *module)
{
	if (st->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 4096;
		struct kft_sym *n = realloc(st->syms, ncap * sizeof(*n));

		if (!n)
			return -1;
		st->syms = n;
		*cap = ncap;
	}
	/* No kernel function is 4 GiB long: a larger size is a bad symbol. */
	st->syms[st->n++] = (struct kft_sym){
		addr, size > UINT32_MAX ? 0 : (uint32_t)size,
		(uint32_t)strlen(name), name, module
	};
	return 0;
}

static int by_addr(const void *a, const void *b)
{
	const struct kft_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int by_name(const void *a, const void *b)
{
	const struct kft_sym *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

/*
 * Lookups in a log jump all over the kernel: a binary search over 150,000
 * symbols is mostly cache misses.  Buckets over the address range narrow
 * it to a few neighbouring symbols first.
 */
#define KFT_SYM_BUCKETS	65536

static int index_buckets(struct kft_symtab *st)
{
	uint64_t span = st->syms[st->n - 1].addr - st->syms[0].addr;
	size_t i, k = 0;

	st->lo = st->syms[0].addr;
	st->shift = 0;
	while ((span >> st->shift) >= KFT_SYM_BUCKETS - 1)
		st->shift++;
	st->nbuckets = (span >> st->shift) + 2;
	st->bucket = malloc(st->nbuckets * sizeof(*st->bucket));
	if (!st->bucket)
		return -1;
	for (i = 0; i < st->n; i++)
		while (k <= (st->syms[i].addr - st->lo) >> st->shift)
			st->bucket[k++] = i;
	while (k < st->nbuckets)
		st->bucket[k++] = st->n;
	return 0;
}

static int finish(struct kft_symtab *st, const char *path, char *err,
		  size_t errlen)
{
	size_t i;

	if (!st->n)
		return fail(err, errlen, "%s: no function symbols", path);
	qsort(st->syms, st->n, sizeof(*st->syms), by_addr);
	st->by_name = malloc(st->n * sizeof(*st->by_name));
	if (!st->by_name)
		return fail(err, errlen, "out of memory");
	for (i = 0; i < st->n; i++)
		st->by_name[i] = &st->syms[i];
	qsort(st->by_name, st->n, sizeof(*st->by_name), by_name);
	if (kft_initcalls_index(&st->initcalls))
		return fail(err, errlen, "out of memory");
	return index_buckets(st) ? fail(err, errlen, "out of memory") : 0;
}

/* A whole file ("-": standard input), NUL-terminated; its length in *len. */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	char *text;

	*len = 0;
	text = kft_slurp_input(path, len);
	if (!text) {
		if (errno == ENOMEM)
			fail(err, errlen, "out of memory");
		else
			fail(err, errlen, "%s: %s", path, strerror(errno));
	}
	return text;
}

static bool hex_address(const char *s)
{
	return s[strspn(s, "0123456789abcdefABCDEF")] == '\0';
}

/*
 * "ffffffff81000000 T _text" or "ffffffffc0001000 t fn\t[module]"; nm and
 * System.map print a symbol without a name as "c029bd60 t".
 */
static int load_map(struct kft_symtab *st, const char *path, char *err,
		    size_t errlen)
{
	size_t cap = 0, lineno = 0, len;
	char *p, *next, *text_end;

	memset(st, 0, sizeof(*st));
	st->text = slurp(path, &len, err, errlen);
	if (!st->text)
		return -1;
	text_end = st->text + len;
	if (!len)
		return fail(err, errlen, "%s: an empty file, no symbols", path);
	kft_crlines_fix(st->text, len);
	/* A NUL would end its line early: what follows it would be lost. */
	p = memchr(st->text, '\0', len);
	if (p) {
		for (next = st->text, lineno = 1; next < p; next++)
			lineno += *next == '\n';
		return fail(err, errlen, "%s:%zu: NUL byte in the line",
			    path, lineno);
	}
	for (p = st->text; p < text_end; p = next) {
		char *addr, *type, *name, *module = NULL, *end;
		unsigned long long a;

		next = memchr(p, '\n', text_end - p);
		if (next)
			*next++ = '\0';
		else
			next = text_end;
		lineno++;
		addr = strtok(p, " \t\r");
		if (!addr)
			continue;	/* a blank line */
		type = strtok(NULL, " \t\r");
		name = strtok(NULL, " \t\r");
		if (!type || type[1] || (!name && !hex_address(addr)))
			return fail(err, errlen, "%s:%zu: not a symbol map line",
				    path, lineno);
		if (!name)
			continue;	/* a nameless symbol (arm Thumb-2 has one) */
		module = strtok(NULL, " \t\r");
		if (module) {
			size_t l = strlen(module);

			if (module[0] != '[' || module[l - 1] != ']')
				return fail(err, errlen,
					    "%s:%zu: not a symbol map line",
					    path, lineno);
			module[l - 1] = '\0';
			module++;
		}
		a = strtoull(addr, &end, 16);
		if (*end || end == addr || a == ULLONG_MAX)
			return fail(err, errlen, "%s:%zu: bad address '%s'",
				    path, lineno, addr);
		if (a && kft_initcalls_note(&st->initcalls, a, name))
			return fail(err, errlen, "out of memory");
		if (!strchr("tTwW", type[0]) || !a)
			continue;
		if (push(st, &cap, a, 0, name, module))
			return fail(err, errlen, "out of memory");
	}
	return finish(st, path, err, errlen);
}

/* Whether [off, off + size) lies within a file of file_size bytes. */
static bool within(uint64_t off, uint64_t size, uint64_t file_size)
{
	return off <= file_size && size <= file_size - off;
}

/*
 * path, opened as an ELF file whose header and section headers lie within
 * it: libelf reads a truncated file as one without sections (so without
 * symbols), and would have the tools say "no function symbols" of it.
 * 0, or -1 with the reason, naming the file, in err.
 */
static int open_elf(const char *path, int *fdp, Elf **elfp, uint64_t *size,
		    char *err, size_t errlen)
{
	unsigned char ident[EI_NIDENT];
	size_t shnum, ehsize, shsize;
	struct stat sb;
	GElf_Ehdr eh;
	ssize_t got;
	Elf *elf;
	int fd;

	*fdp = -1;
	*elfp = NULL;
	if (!strcmp(path, "-"))
		return fail(err, errlen,
			    "-: an ELF file is read by its name, not from standard input");
	/* Not blocking on a FIFO: it is refused below. */
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	*fdp = fd;
	if (fstat(fd, &sb))
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	if (S_ISDIR(sb.st_mode))
		return fail(err, errlen, "%s: %s", path, strerror(EISDIR));
	if (!S_ISREG(sb.st_mode))
		return fail(err, errlen,
			    "%s: not a regular file (an ELF file cannot be read from a pipe or device)",
			    path);
	*size = sb.st_size;
	if (!*size)
		return fail(err, errlen, "%s: an empty file, not an ELF file",
			    path);
	do
		got = pread(fd, ident, sizeof(ident), 0);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	if (got < SELFMAG || memcmp(ident, ELFMAG, SELFMAG))
		return fail(err, errlen, "%s: not an ELF file", path);
	if (got < EI_NIDENT)
		return fail(err, errlen,
			    "%s: a truncated ELF file (%llu bytes, within its ELF header)",
			    path, (unsigned long long)*size);
	if (ident[EI_CLASS] != ELFCLASS32 && ident[EI_CLASS] != ELFCLASS64)
		return fail(err, errlen, "%s: not a valid ELF file (bad class %u)",
			    path, ident[EI_CLASS]);
	ehsize = ident[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Ehdr) :
						 sizeof(Elf32_Ehdr);
	shsize = ident[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Shdr) :
						 sizeof(Elf32_Shdr);
	if (*size < ehsize)
		return fail(err, errlen,
			    "%s: a truncated ELF file (%llu bytes, within its %zu-byte ELF header)",
			    path, (unsigned long long)*size, ehsize);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	*elfp = elf;
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return fail(err, errlen, "%s: not a valid ELF file: %s", path,
			    elf_errmsg(-1));
	if (!eh.e_shoff)
		return fail(err, errlen,
			    "%s: an ELF file without section headers, so without symbols",
			    path);
	if (eh.e_shentsize != shsize)
		return fail(err, errlen,
			    "%s: not a valid ELF file (section header size %u)",
			    path, eh.e_shentsize);
	/* Section 0 holds the count when there are too many for e_shnum. */
	if (!within(eh.e_shoff, shsize, *size))
		return fail(err, errlen,
			    "%s: a truncated or corrupt ELF file: its section headers start past its end (%llu bytes)",
			    path, (unsigned long long)*size);
	/* libelf counts none in a truncated file: the header's count. */
	shnum = eh.e_shnum;
	if (!shnum && elf_getshdrnum(elf, &shnum))
		return fail(err, errlen, "%s: not a valid ELF file: %s", path,
			    elf_errmsg(-1));
	if ((*size - eh.e_shoff) / shsize < shnum)
		return fail(err, errlen,
			    "%s: a truncated or corrupt ELF file: %zu section headers run past its end (%llu bytes)",
			    path, shnum, (unsigned long long)*size);
	return 0;
}

/*
 * A symbol table and its string table lie within the file, and its data
 * reads: libelf would give a table past the end as no table at all.
 */
static int symtab_ok(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
		     uint64_t size, const char *path, char *err, size_t errlen)
{
	size_t ndx = elf_ndxscn(scn), esize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	Elf_Scn *strs = elf_getscn(elf, sh->sh_link);
	GElf_Shdr ss;
	Elf_Data *d;

	if (sh->sh_entsize != esize)
		return fail(err, errlen, "%s: bad symbol table (entry size %llu)",
			    path, (unsigned long long)sh->sh_entsize);
	if (!within(sh->sh_offset, sh->sh_size, size))
		return fail(err, errlen,
			    "%s: a truncated or corrupt ELF file: its symbol table (section %zu, %llu bytes at %llu) runs past its end (%llu bytes)",
			    path, ndx, (unsigned long long)sh->sh_size,
			    (unsigned long long)sh->sh_offset,
			    (unsigned long long)size);
	if (!strs || !gelf_getshdr(strs, &ss) || ss.sh_type != SHT_STRTAB)
		return fail(err, errlen,
			    "%s: a corrupt ELF file: the symbol table's names (section %u) are no string table",
			    path, (unsigned int)sh->sh_link);
	if (!within(ss.sh_offset, ss.sh_size, size))
		return fail(err, errlen,
			    "%s: a truncated or corrupt ELF file: the symbol table's names (section %u, %llu bytes at %llu) run past its end (%llu bytes)",
			    path, (unsigned int)sh->sh_link,
			    (unsigned long long)ss.sh_size,
			    (unsigned long long)ss.sh_offset,
			    (unsigned long long)size);
	d = elf_getdata(scn, NULL);
	if (sh->sh_size && (!d || d->d_size < sh->sh_size / esize * esize))
		return fail(err, errlen, "%s: a corrupt ELF file: its symbol table does not read: %s",
			    path, elf_errmsg(-1));
	return 0;
}

static int load_elf(struct kft_symtab *st, const char *path, char *err,
		    size_t errlen)
{
	Elf_Scn *scn = NULL;
	size_t cap = 0, names = 0, used = 0, tables = 0;
	uint64_t size = 0;
	Elf *elf;
	int fd, ret = -1;

	memset(st, 0, sizeof(*st));
	if (elf_version(EV_CURRENT) == EV_NONE)
		return fail(err, errlen, "libelf: %s", elf_errmsg(-1));
	if (open_elf(path, &fd, &elf, &size, err, errlen))
		goto out;
	/* First pass: size of all function names, kept in one block. */
	for (int pass = 0; pass < 2; pass++) {
		scn = NULL;
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			Elf_Data *d;
			size_t i;

			if (!gelf_getshdr(scn, &sh)) {
				fail(err, errlen, "%s: a corrupt ELF file: section %zu's header: %s",
				     path, elf_ndxscn(scn), elf_errmsg(-1));
				goto out;
			}
			if (sh.sh_type != SHT_SYMTAB)
				continue;
			if (!pass && symtab_ok(elf, scn, &sh, size, path, err, errlen))
				goto out;
			tables += !pass;
			d = elf_getdata(scn, NULL);
			for (i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
				GElf_Sym s;
				const char *n;
				bool fn, initcall;

				if (!gelf_getsym(d, i, &s)) {
					fail(err, errlen, "%s: a corrupt ELF file: symbol %zu: %s",
					     path, i, elf_errmsg(-1));
					goto out;
				}
				if (!s.st_value)
					continue;
				n = elf_strptr(elf, sh.sh_link, s.st_name);
				if (!n) {
					fail(err, errlen,
					     "%s: a corrupt ELF file: symbol %zu's name lies outside its string table",
					     path, i);
					goto out;
				}
				if (!*n)
					continue;
				/* _text anchors the KASLR offset. */
				fn = GELF_ST_TYPE(s.st_info) == STT_FUNC ||
				     !strcmp(n, "_text");
				initcall = !strncmp(n, "__initcall", 10);
				if (!fn && !initcall)
					continue;
				if (!pass) {
					names += strlen(n) + 1;
					continue;
				}
				strcpy(st->text + used, n);
				if ((initcall &&
				     kft_initcalls_note(&st->initcalls, s.st_value,
							st->text + used)) ||
				    (fn && push(st, &cap, s.st_value, s.st_size,
						st->text + used, NULL))) {
					fail(err, errlen, "out of memory");
					goto out;
				}
				used += strlen(n) + 1;
			}
		}
		if (!pass && !tables) {
			fail(err, errlen, "%s: no symbol table (a stripped file?)",
			     path);
			goto out;
		}
		if (!pass && !(st->text = malloc(names + 1))) {
			fail(err, errlen, "out of memory");
			goto out;
		}
	}
	ret = 0;
out:
	elf_end(elf);
	if (fd >= 0)
		close(fd);
	return ret ? ret : finish(st, path, err, errlen);
}

int kft_symtab_load(struct kft_symtab *st, const char *map, const char *elf,
		    char *err, size_t errlen)
{
	return map ? kft_symtab_load_map(st, map, err, errlen) :
		     kft_symtab_load_elf(st, elf, err, errlen);
}

/* A table that failed to load holds nothing. */
static int loaded(struct kft_symtab *st, int ret)
{
	if (ret)
		kft_symtab_free(st);
	return ret;
}

int kft_symtab_load_map(struct kft_symtab *st, const char *path, char *err,
			size_t errlen)
{
	return loaded(st, load_map(st, path, err, errlen));
}

int kft_symtab_load_elf(struct kft_symtab *st, const char *path, char *err,
			size_t errlen)
{
	return loaded(st, load_elf(st, path, err, errlen));
}

void kft_symtab_free(struct kft_symtab *st)
{
	free(st->syms);
	free(st->by_name);
	free(st->text);
	free(st->bucket);
	kft_initcalls_free(&st->initcalls);
	memset(st, 0, sizeof(*st));
}

/* Largest gap a symbol of unknown size may cover (past the last symbol). */
#define KFT_SYM_MAX_GUESS	0x10000

const struct kft_sym *kft_symtab_find(const struct kft_symtab *st,
				      uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi = st->n;
	const struct kft_sym *s;

	addr -= st->bias;
	if (addr < st->lo)
		return NULL;
	if (((addr - st->lo) >> st->shift) + 1 < st->nbuckets) {
		size_t k = (addr - st->lo) >> st->shift;

		lo = st->bucket[k] ? st->bucket[k] - 1 : 0;
		hi = st->bucket[k + 1];
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &st->syms[lo - 1];
	*off = addr - s->addr;
	if (s->size ? *off >= s->size :
	    (lo == st->n && *off >= KFT_SYM_MAX_GUESS))
		return NULL;
	return s;
}

/* Index in by_name of the first symbol called name, or st->n. */
static size_t first_named(const struct kft_symtab *st, const char *name)
{
	size_t lo = 0, hi = st->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(st->by_name[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < st->n && !strcmp(st->by_name[lo]->name, name) ? lo : st->n;
}

const struct kft_sym *kft_symtab_named(const struct kft_symtab *st,
				       const char *name)
{
	size_t i = first_named(st, name);

	return i < st->n ? st->by_name[i] : NULL;
}

int kft_symtab_addr(const struct kft_symtab *st, const char *name,
		    uint64_t *addr)
{
	size_t i = first_named(st, name), j;

	if (i == st->n)
		return -ENOENT;
	for (j = i + 1; j < st->n && !strcmp(st->by_name[j]->name, name); j++)
		if (st->by_name[j]->addr != st->by_name[i]->addr)
			return -ENOTUNIQ;
	*addr = st->by_name[i]->addr + st->bias;
	return 0;
}

bool kft_log_header_line(const char *line, struct kft_symtab *st)
{
	const struct kft_sym *text;
	unsigned long long base;

	if (!strncmp(line, "--------", 8))
		return true;
	if (st && sscanf(line, "Kernel text base 0x%llx", &base) == 1) {
		text = kft_symtab_named(st, "_text");
		if (text)
			st->bias = (int64_t)(base - text->addr);
	}
	return false;
}
