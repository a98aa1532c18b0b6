/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * libFuzzer target for the telemetry request parser (src/telemetry/
 * request.c) and the error replies built from what it says: the input is
 * split into lines as the server splits a connection's bytes, and each line
 * is parsed. Checked for every line: the parser returns 0, -EINVAL or
 * -EOPNOTSUPP and nothing else; a parsed request is well formed (a known
 * op, ids from 1, the attributes its op requires); and the error reply for
 * a refused line - whatever bytes its message quotes - encodes to one line
 * of JSON that parses back with the same errno and seq. ASan/UBSan find
 * the rest.
 *
 * Built as fuzz_telemetry in a clang build that links libFuzzer (run by
 * tools/reliability/fuzz.sh), and with -DPP_FUZZ_TELEMETRY_REPLAY as
 * fuzz_telemetry_replay in every build, which replays the committed corpus
 * tests/fuzz/corpus-telemetry/ as a regression test.
 * Context: one thread. Layer: tests.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "telemetry/telemetry_internal.h"

static unsigned long nr_lines, nr_ok, nr_einval, nr_eopnotsupp;

static void check(bool cond, const char *what, const uint8_t *line, size_t len)
{
	if (cond)
		return;
	fprintf(stderr, "fuzz_telemetry: %s for the line \"%.*s\"\n", what, (int)len,
		(const char *)line);
	abort();
}

static void one_line(const uint8_t *line, size_t len)
{
	char msg[PPTLM_MSG_LEN];
	struct pptlm_request req;
	json_t *e, *back;
	json_error_t jerr;
	size_t out_len;
	char *out;
	int err;

	nr_lines++;
	memset(&req, 0xa5, sizeof(req));
	err = pptlm_parse_request((const char *)line, len, &req, msg, sizeof(msg));
	check(err == 0 || err == -EINVAL || err == -EOPNOTSUPP, "unexpected return", line, len);
	check(memchr(msg, '\0', sizeof(msg)) != NULL, "message not terminated", line, len);
	if (!err) {
		nr_ok++;
		check(req.op < PPTLM_OP_NR, "op out of range", line, len);
		check(!req.has_id || req.id >= 1, "id 0 accepted", line, len);
		check(req.op != PPTLM_OP_HOLDERS_GET || req.has_id, "holders-get without id",
		      line, len);
		check(req.op != PPTLM_OP_SUBSCRIBE || !req.has_id, "subscribe with an id", line,
		      len);
		return;
	}
	if (err == -EINVAL)
		nr_einval++;
	else
		nr_eopnotsupp++;
	check(msg[0] != '\0', "error without a message", line, len);

	e = pptlm_error_json(req.has_seq, req.seq, -err, msg);
	check(e != NULL, "error reply not built", line, len);
	out = pptlm_dump_line(e, &out_len);
	json_decref(e);
	check(out != NULL, "error reply not encoded", line, len);
	check(out_len && out[out_len - 1] == '\n' && !memchr(out, '\n', out_len - 1),
	      "error reply is not one line", line, len);
	back = json_loadb(out, out_len, 0, &jerr);
	check(back != NULL, "error reply does not parse", line, len);
	check(json_integer_value(json_object_get(json_object_get(back, "error"), "errno")) ==
	      -err, "errno changed", line, len);
	check(!req.has_seq ||
	      json_integer_value(json_object_get(back, "seq")) == (json_int_t)req.seq,
	      "seq changed", line, len);
	json_decref(back);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t off = 0;

	/* As the server: lines up to a newline (a CR before it dropped),
	 * blank ones skipped, an unfinished last one parsed too. */
	while (off < size) {
		const uint8_t *nl = memchr(data + off, '\n', size - off);
		size_t len = nl ? (size_t)(nl - (data + off)) : size - off;

		if (len && data[off + len - 1] == '\r')
			len--;
		if (len)
			one_line(data + off, len);
		off += (nl ? (size_t)(nl - (data + off)) + 1 : size - off);
	}
	return 0;
}

#ifdef PP_FUZZ_TELEMETRY_REPLAY
static long replay(const char *path)
{
	struct stat st;
	long runs = 0;

	if (stat(path, &st)) {
		perror(path);
		exit(2);
	}
	if (S_ISDIR(st.st_mode)) {
		struct dirent **names;
		int n = scandir(path, &names, NULL, alphasort), i;

		if (n < 0) {
			perror(path);
			exit(2);
		}
		for (i = 0; i < n; i++) {
			char *sub;

			if (names[i]->d_name[0] != '.') {
				if (asprintf(&sub, "%s/%s", path, names[i]->d_name) < 0)
					exit(2);
				runs += replay(sub);
				free(sub);
			}
			free(names[i]);
		}
		free(names);
	} else {
		FILE *f = fopen(path, "rb");
		uint8_t *buf = malloc((size_t)st.st_size + 1);

		if (!f || !buf || fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
			fprintf(stderr, "%s: read failed\n", path);
			exit(2);
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)st.st_size);
		free(buf);
		runs = 1;
	}
	return runs;
}

int main(int argc, char **argv)
{
	long runs = 0;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s <input file or directory>...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++)
		runs += replay(argv[i]);
	printf("fuzz-telemetry-replay: %ld input(s), %lu lines: %lu parsed, %lu EINVAL, %lu EOPNOTSUPP\n",
	       runs, nr_lines, nr_ok, nr_einval, nr_eopnotsupp);
	return runs ? 0 : 1;
}
#endif
