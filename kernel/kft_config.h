/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KFT run configuration: the one grammar shared by /proc/kft, the boot-time
 * run (kftstatic.conf via scripts/mkkftrun, and the kft= parameter), and the
 * host tools (scripts/sym2addr, tests).  This header and kft_config.c build
 * in the kernel and, against scripts/kft/include, on the host.
 */
#ifndef _KERNEL_KFT_CONFIG_H
#define _KERNEL_KFT_CONFIG_H

#include <linux/types.h>

#define KFT_DEFAULT_LOGENTRIES	20000UL
#define KFT_MAX_LOGENTRIES	(16UL << 20)
#define KFT_MAX_FUNCLIST	65536U
#define KFT_NAME_MAX		128
#define KFT_MAX_NOTUNDER	8	/* filter notunder functions */
#define KFT_COMM_LEN		16	/* TASK_COMM_LEN: 15 characters */
#define KFT_MAX_PID		4194304	/* PID_MAX_LIMIT */
#define KFT_MAX_DEPTH		65535

/* A function named in a config: by address, or by name until resolved. */
struct kft_fref {
	unsigned long addr;
	char *name;		/* NULL when given as an address */
	unsigned int line;	/* where in the config: for errors found */
	size_t offset;		/* later, and for tools that rewrite it */
	size_t len;
};

enum kft_trigger_kind {
	KFT_TRIGGER_NONE,
	KFT_TRIGGER_ENTRY,
	KFT_TRIGGER_EXIT,
	KFT_TRIGGER_TIME,
};

struct kft_trigger {
	enum kft_trigger_kind kind;
	struct kft_fref fn;	/* ENTRY, EXIT */
	u64 time_ns;		/* TIME: start since boot, stop since start */
};

enum kft_watch_kind {
	KFT_WATCH_NONE,
	KFT_WATCH_STACK,
	KFT_WATCH_WORST_STACK,
};

/*
 * A boot run is parsed into a static arena and its funclist resolved into
 * a static array (kft_boot.c); mkkftrun checks kftstatic.conf against the
 * same sizes, so that a config the build accepts is one the boot takes.
 */
#define KFT_BOOT_ARENA		(128U << 10)	/* 1024 names of 80 characters */
#define KFT_BOOT_MAX_FUNCS	1024U

/* Memory for configs parsed before the kernel's allocators are up. */
struct kft_arena {
	char *base;
	size_t size;
	size_t used;
};

struct kft_config {
	struct kft_trigger start;
	struct kft_trigger stop;
	u64 mintime_ns;
	u64 maxtime_ns;		/* 0: no limit */
	bool noints;
	bool onlyints;
	bool autorepeat;
	unsigned int nfuncs;	/* funclist; 0: every function */
	unsigned int funcs_room;
	struct kft_fref *funcs;
	/* Scope: which tasks' calls, how deep, which subtrees left out. */
	bool pid_set;
	unsigned int pid;	/* filter pid */
	char comm[KFT_COMM_LEN];	/* filter comm; "" if not given */
	bool children;		/* filter children: the starter and its forks */
	bool depth_set;
	unsigned int depth;	/* filter depth: levels below the outermost */
	unsigned int nnotunder;
	struct kft_fref notunder[KFT_MAX_NOTUNDER];	/* filter notunder */
	unsigned long logentries;
	bool logentries_set;	/* given, not the default */
	enum kft_watch_kind watch;
	unsigned long watch_bytes;
	struct kft_arena *arena;	/* NULL: kmalloc()ed */
};

/* Where and why a config was refused. */
struct kft_config_error {
	unsigned int line;
	char stmt[24];		/* the statement whose value is wrong, or "" */
	char token[48];		/* the user's bytes, raw; cut: there were more */
	size_t token_len;	/* (a span of words may hold a NUL) */
	bool cut;
	const char *msg;
};

/*
 * "STATEMENT: 'TOKEN': MESSAGE", each part only if there is one, the
 * token escaped (kft_config_escape()); at most KFT_ERROR_LEN bytes with
 * the NUL.
 */
#define KFT_ERROR_LEN		160
const char *kft_config_strerror(const struct kft_config_error *err,
				char *buf, size_t size);

/*
 * The user's bytes as an error may show them: printable ASCII as it is,
 * a backslash doubled, \n \t \r, any other byte \xHH; "..." at the end if
 * they do not all fit in size bytes with the NUL (size >= 4).
 */
const char *kft_config_escape(char *buf, size_t size, const char *s,
			      size_t len);

/* Parse flags. */
#define KFT_PARSE_STATIC	0x1	/* kftstatic.conf: no new/end, commas allowed */
#define KFT_PARSE_PIECE		0x2	/* -EAGAIN while no "end" follows */

void kft_config_init(struct kft_config *cfg);
void kft_config_free(struct kft_config *cfg);
struct kft_fref *kft_config_fref(struct kft_config *cfg, unsigned int i);
int kft_config_parse(struct kft_config *cfg, const char *text, size_t len,
		     unsigned int flags, struct kft_config_error *err);
/* The same, taking memory from an arena rather than kmalloc(). */
int kft_config_parse_in(struct kft_config *cfg, const char *text, size_t len,
			unsigned int flags, struct kft_arena *arena,
			struct kft_config_error *err);
bool kft_config_complete(const char *text, size_t len, unsigned int flags);
bool kft_config_begins(const char *text, size_t len);
bool kft_config_may_begin(const char *text, size_t len);

/* Where the search for a config's "end" got to (kft_config_scan_end()). */
struct kft_config_scan {
	size_t pos;
	bool in_comment;	/* pos is inside a comment */
	int first;		/* the first word: 1 "new", -1 another, 0 none yet */
};

bool kft_config_scan_end(const char *text, size_t len,
			 struct kft_config_scan *scan);
int kft_config_piece(const char *text, size_t len,
		     struct kft_config_scan *scan, struct kft_config *cfg,
		     struct kft_config_error *err);

/* Resolve function names into addresses; 0 or the lookup's -errno. */
typedef int (*kft_lookup_fn)(void *priv, const char *name,
			     unsigned long *addr);
int kft_config_resolve(struct kft_config *cfg, kft_lookup_fn lookup,
		       void *priv, struct kft_config_error *err);

/*
 * Print a config in the language, so that it parses back to the same
 * config; names() may give each address a comment.  Returns the length it
 * needed (as snprintf does).
 */
typedef const char *(*kft_name_fn)(void *priv, unsigned long addr,
				   char *buf, size_t size);
size_t kft_config_print(const struct kft_config *cfg, char *buf, size_t size,
			kft_name_fn names, void *priv);

/* Parse a time with optional ns/us/ms/s suffix (bare: microseconds). */
int kft_parse_time(const char *tok, u64 *ns);

#endif /* _KERNEL_KFT_CONFIG_H */
