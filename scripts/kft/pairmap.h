/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A pair of 32-bit ids -> a 32-bit index, hashed (open addressing, at most
 * half full): who calls whom (kd's callee columns), a call path's child
 * for a function (callpath.c).  A function may call thousands of others:
 * no list to scan.
 */
#ifndef _KFT_PAIRMAP_H
#define _KFT_PAIRMAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "xalloc.h"

struct kft_pairmap {
	uint64_t *keys;		/* a << 32 | b, + 1; 0: empty */
	uint32_t *vals;
	uint32_t n, nslots;
};

static inline uint32_t kft_pairmap_slot_of(const struct kft_pairmap *m,
					   uint64_t key)
{
	uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) &
		     (m->nslots - 1);

	while (m->keys[h] && m->keys[h] != key)
		h = (h + 1) & (m->nslots - 1);
	return h;
}

static inline void kft_pairmap_grow(struct kft_pairmap *m)
{
	struct kft_pairmap old = *m;
	uint32_t i;

	m->nslots = old.nslots ? old.nslots * 2 : 1024;
	m->keys = xcalloc(m->nslots, sizeof(*m->keys));
	m->vals = xcalloc(m->nslots, sizeof(*m->vals));
	for (i = 0; i < old.nslots; i++) {
		if (old.keys[i]) {
			uint32_t h = kft_pairmap_slot_of(m, old.keys[i]);

			m->keys[h] = old.keys[i];
			m->vals[h] = old.vals[i];
		}
	}
	free(old.keys);
	free(old.vals);
}

/*
 * The value of (a, b): true and *val if present; else false, and *slot
 * is where kft_pairmap_put() puts it.
 */
static inline bool kft_pairmap_get(struct kft_pairmap *m, uint32_t a,
				   uint32_t b, uint32_t *val, uint32_t *slot)
{
	uint64_t key = ((uint64_t)a << 32 | b) + 1;

	if (2 * (m->n + 1) > m->nslots)
		kft_pairmap_grow(m);
	*slot = kft_pairmap_slot_of(m, key);
	if (!m->keys[*slot])
		return false;
	*val = m->vals[*slot];
	return true;
}

static inline void kft_pairmap_put(struct kft_pairmap *m, uint32_t slot,
				   uint32_t a, uint32_t b, uint32_t val)
{
	m->keys[slot] = ((uint64_t)a << 32 | b) + 1;
	m->vals[slot] = val;
	m->n++;
}

static inline void kft_pairmap_free(struct kft_pairmap *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->n = m->nslots = 0;
}

#endif /* _KFT_PAIRMAP_H */
