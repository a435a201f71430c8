/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The driver tests build a platform from fragments: a base machine plus a
 * fragment that adds keys to one of its sections or overrides some
 * ("[cpu]\nhypervisor = kvm\n" after a base with its own [cpu]). Platform
 * files refuse a section or key given twice (issue 9, D11), so the
 * fragments are joined here the way the tests mean them: a repeated
 * section continues the first one, a repeated key (an option by its
 * option name) replaces the earlier value in place. A text without
 * repetitions is copied unchanged, so its line numbers stay.
 */
#ifndef IDLELAB_TESTS_INI_JOIN_H
#define IDLELAB_TESTS_INI_JOIN_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define INI_JOIN_LINES 256

struct ini_join_line {
	char section[48];
	char id[96];       /* key, "option:NAME" for options, "" for a header */
	char text[200];
	bool dead;
};

static void ini_join_id(const char *line, char *id, size_t n)
{
	const char *eq = strchr(line, '=');
	size_t kl;

	id[0] = '\0';
	if (!eq)
		return;
	while (*line == ' ' || *line == '\t')
		line++;
	kl = (size_t)(eq - line);
	while (kl && (line[kl - 1] == ' ' || line[kl - 1] == '\t'))
		kl--;
	if (kl == 6 && !strncmp(line, "option", 6)) {
		const char *v = eq + 1, *e;
		while (*v == ' ')
			v++;
		e = strchr(v, '=');
		size_t vl = e ? (size_t)(e - v) : strcspn(v, " \n");
		while (vl && v[vl - 1] == ' ')
			vl--;
		snprintf(id, n, "option:%.*s", (int)vl, v);
	} else if (kl == 6 && !strncmp(line, "source", 6)) {
		id[0] = '\0'; /* repeats by design */
	} else {
		snprintf(id, n, "%.*s", (int)kl, line);
	}
}

/* Join text's repeated sections and keys into out (see above). */
static void ini_join(char *out, size_t size, const char *text)
{
	static struct ini_join_line l[INI_JOIN_LINES];
	char section[48] = "";
	int n = 0;
	bool repeated = false;

	for (const char *s = text; *s && n < INI_JOIN_LINES;) {
		size_t len = strcspn(s, "\n");
		struct ini_join_line *x = &l[n];

		snprintf(x->text, sizeof(x->text), "%.*s", (int)len, s);
		x->dead = false;
		x->id[0] = '\0';
		if (x->text[0] == '[') {
			snprintf(section, sizeof(section), "%.*s", (int)strcspn(x->text + 1, "]"),
				 x->text + 1);
			for (int i = 0; i < n; i++)
				if (!l[i].id[0] && l[i].text[0] == '[' && !strcmp(l[i].section, section)) {
					x->dead = true; /* continues the first one */
					repeated = true;
				}
		} else if (x->text[0] != ';' && x->text[0] != '#') {
			ini_join_id(x->text, x->id, sizeof(x->id));
		}
		snprintf(x->section, sizeof(x->section), "%s", section);
		for (int i = 0; x->id[0] && i < n; i++)
			if (!l[i].dead && !strcmp(l[i].section, section) && !strcmp(l[i].id, x->id)) {
				/* the later value, in the earlier place */
				memcpy(l[i].text, x->text, sizeof(l[i].text)); /* i < n: not x */
				x->dead = true;
				repeated = true;
			}
		n++;
		s += len + (s[len] == '\n');
	}
	if (!repeated) {
		snprintf(out, size, "%s", text);
		return;
	}
	/* each section once, in first-appearance order, with all its lines */
	size_t o = 0;
	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (l[i].dead || l[i].text[0] != '[')
			continue;
		o += (size_t)snprintf(out + o, o < size ? size - o : 0, "%s\n", l[i].text);
		for (int j = i + 1; j < n; j++)
			if (!l[j].dead && l[j].text[0] != '[' && !strcmp(l[j].section, l[i].section))
				o += (size_t)snprintf(out + o, o < size ? size - o : 0, "%s\n",
						      l[j].text);
	}
}

#endif
