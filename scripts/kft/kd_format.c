// SPDX-License-Identifier: GPL-2.0
/* kd's numbers: microseconds as the log writes them, fast. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "kd_types.h"

/*
 * v in microseconds, with 3 decimals if the log has them: "%.3f" / "%.0f"
 * by hand for the usual range (printf's float formatting was a third of
 * kd -c's time); values out of that range go to snprintf().
 */
const char *kd_fmt_us(const struct kd *kd, double v, char *buf, size_t n)
{
	int scale = kd->fractions ? 1000 : 1;
	double r = v * scale;
	char tmp[32];
	int64_t x;
	int i = sizeof(tmp), d;

	/* Near a half, only printf() rounds the binary value as printf() does. */
	if (!(fabs(r) < 9e15) || n < 24 ||
	    fabs(fabs(r - trunc(r)) - 0.5) < 1e-6) {
		snprintf(buf, n, kd->fractions ? "%.3f" : "%.0f", v);
		return buf;
	}
	x = llround(r);
	tmp[--i] = '\0';
	for (d = 0; d < (kd->fractions ? 3 : 0); d++) {
		tmp[--i] = '0' + (char)(llabs(x) % 10);
		x = x < 0 ? -(-x / 10) : x / 10;
	}
	if (kd->fractions)
		tmp[--i] = '.';
	do {
		tmp[--i] = '0' + (char)(llabs(x) % 10);
		x = x < 0 ? -(-x / 10) : x / 10;
	} while (x);
	if (r < 0 && llround(r) != 0)
		tmp[--i] = '-';
	memcpy(buf, tmp + i, sizeof(tmp) - i);
	return buf;
}

const char *kd_fmt_change(const struct kd *kd, double v, char *buf, size_t n)
{
	char num[32];

	kd_fmt_us(kd, v, num, sizeof(num));
	snprintf(buf, n, "%s%s", v > 0 && strcmp(num, "0") ? "+" : "", num);
	return buf;
}

double kd_hooks_share(const struct kd *kd)
{
	return kd->traced > 0 ? kd->traced_hooks / kd->traced : NAN;
}

/* "84.3/131.0/38.2 ns per dropped/logged/own call" */
static void cost_text(const struct kft_comp_stats *cs, char *buf, size_t n)
{
	const struct kft_hook_cost *c = &cs->first;
	char where[128] = "", when[48] = "";

	/* How the kernel measured it, if it said: the cost holds there. */
	if (!cs->differ && c->cpu >= 0) {
		if (c->after_ms >= 0)
			snprintf(when, sizeof(when), ", %.0f ms after the stop",
				 c->after_ms);
		if (c->khz > 0)
			snprintf(where, sizeof(where),
				 ", measured back to back on CPU %ld, cycle counter at %.1f MHz%s",
				 c->cpu, c->khz / 1000, when);
		else
			snprintf(where, sizeof(where),
				 ", measured back to back on CPU %ld, sched_clock()%s",
				 c->cpu, when);
	}
	if (cs->differ)
		snprintf(buf, n, "each log's hook cost");
	else
		snprintf(buf, n, "%.1f/%.1f/%.1f ns per dropped/logged/own call%s",
			 c->dropped * 1000, c->logged * 1000, c->own * 1000,
			 where);
}

bool kd_costed(const struct kd *kd)
{
	const struct kft_log_reader *r = kd->reader;

	if (!kd->comp.logs && r)
		return r->cost_ok && r->log_columns;
	return kd->comp.costed;
}

bool kd_times_note(const struct kd *kd, bool share, char *buf, size_t n)
{
	const struct kft_comp_stats *cs = &kd->comp;
	const struct kft_log_reader *r = kd->reader;
	struct kft_comp_stats now;
	char cost[256], part[64] = "", pct[96] = "";
	double f = kd_hooks_share(kd);

	/* While a log is read (kd -c -r): what its header said. */
	if (!cs->logs && r) {
		memset(&now, 0, sizeof(now));
		now.logs = 1;
		now.costed = kd_costed(kd);
		now.partial = !now.costed && (r->cost_ok || r->log_columns);
		now.first = r->cost;
		cs = &now;
		share = false;
	}
	buf[0] = '\0';
	if (!cs->costed && !cs->partial)
		return false;
	if (!cs->costed) {
		snprintf(buf, n, "times: as measured, KFT's hooks included (the log gives %s, not both)",
			 "a hook cost or Calls and Logged columns");
		return true;
	}
	cost_text(cs, cost, sizeof(cost));
	if (cs->costed < cs->logs)
		snprintf(part, sizeof(part), " in %lu of %lu logs", cs->costed,
			 cs->logs);
	if (share && !isnan(f))
		snprintf(pct, sizeof(pct), ": instrumentation was %.1f%% of the traced time",
			 100 * f);
	if (kd->opt.raw)
		snprintf(buf, n, "times: as measured (--raw), KFT's hooks included%s (%s)%s",
			 part, cost, pct);
	else
		snprintf(buf, n, "times: compensated for KFT's hooks%s (%s)%s%s; --raw for measured",
			 part, cost, pct, kd->stream ?
			 "; -r keeps other tasks' hooks in waiting calls (-c takes them off)" :
			 "");
	return true;
}

const struct kft_export_note *kd_export_note(const struct kd *kd,
					     struct kft_export_note *en,
					     char *buf, size_t n)
{
	memset(en, 0, sizeof(*en));
	en->share = NAN;
	if (!kd_times_note(kd, true, buf, n))
		return en;
	en->text = buf;
	en->times = kd->comp.costed && !kd->opt.raw ? "compensated" : "measured";
	if (!strcmp(en->times, "compensated"))
		en->waits = kd->waits_taken ? "taken off" : "left in";
	en->cost_known = kd->comp.costed && !kd->comp.differ;
	en->cost = kd->comp.first;
	if (kd->comp.costed)
		en->share = kd_hooks_share(kd);
	return en;
}

const char *kd_fmt_hooks_share(double raw, double hooks, bool *uncertain,
			       char *buf, size_t n)
{
	double s;

	if (!(raw > 0))
		return "-";
	s = hooks / raw;
	snprintf(buf, n, "%.0f%%%s", 100 * s, s >= HOOKS_UNCERTAIN ? "!" : "");
	if (s >= HOOKS_UNCERTAIN)
		*uncertain = true;
	return buf;
}

void kd_uncertain_note(void)
{
	printf("!: KFT's hooks were half or more of the time as measured: the compensated time is\n"
	       "   mostly the calibration's estimate, uncertain on a real CPU (--raw for measured)\n");
}
