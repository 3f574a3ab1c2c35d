/* A main for the fuzz targets without libFuzzer (gcc, make check):
     DRIVER FILE|DIR...             run each file (a DIR's files) once
     DRIVER -t SECONDS DIR...       then mutate them at random for
                                    SECONDS (bit flips, byte sets,
                                    truncation, splices, repeats)
   A crash is a sanitizer's report and a nonzero exit; with -t and
   $FUZZ_LAST the sanitizer's death callback writes the input that
   crashed there, to become a regression file.  The seed is the
   time, printed, or $FUZZ_SEED.  */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
	uint8_t *data;
	size_t size;
};

static struct input *inputs;
static size_t ninputs, cap;

static void add_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct input in = { NULL, 0 };
	long n;

	if (!f)
		return;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0) {
		in.data = malloc((size_t) n + 1);
		if (in.data && fread(in.data, 1, (size_t) n, f) == (size_t) n)
			in.size = (size_t) n;
	}
	fclose(f);
	if (!in.data)
		return;
	if (ninputs == cap) {
		cap = cap ? cap * 2 : 64;
		inputs = realloc(inputs, cap * sizeof(*inputs));
		if (!inputs)
			exit(2);
	}
	inputs[ninputs++] = in;
}

static void add_path(const char *path)
{
	struct stat st;
	struct dirent **names;
	int n;

	if (stat(path, &st) < 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		add_file(path);
		return;
	}
	n = scandir(path, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		char full[4096];

		if (names[i]->d_name[0] != '.') {
			snprintf(full, sizeof(full), "%s/%s", path,
				 names[i]->d_name);
			add_file(full);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

static uint64_t rng;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* One random change of BUF (LEN bytes, room for CAP).  */
static size_t mutate(uint8_t *buf, size_t len, size_t cap)
{
	const struct input *other = &inputs[next() % ninputs];
	size_t at = len ? next() % len : 0, n;

	switch (next() % 7) {
	case 0:
		if (len)
			buf[at] ^= (uint8_t) (1u << (next() % 8));
		return len;
	case 1:
		if (len)
			buf[at] = (uint8_t) next();
		return len;
	case 2:
		if (len)
			buf[at] = "\x00\xff\x7f\x80$#}*:;,\n"[next() % 12];
		return len;
	case 3:
		return len ? next() % len : 0;
	case 4:
		/* Splice in a piece of another input.  */
		if (!other->size)
			return len;
		n = 1 + next() % other->size;
		if (at + n > cap)
			n = cap - at;
		memcpy(buf + at, other->data + next() % (other->size - n + 1), n);
		return at + n > len ? at + n : len;
	case 5:
		/* Repeat a piece.  */
		n = len - at < 64 ? len - at : 64;
		if (!n || len + n > cap)
			return len;
		memmove(buf + at + n, buf + at, len - at);
		return len + n;
	default:
		if (len < cap)
			buf[len++] = (uint8_t) next();
		return len;
	}
}

static const char *last_path;
static const uint8_t *cur_data;
static size_t cur_size;

/* Called by ASan or UBSan as it ends the process.  */
static void keep_last(void)
{
	FILE *f = last_path && cur_data ? fopen(last_path, "wb") : NULL;

	if (f) {
		fwrite(cur_data, 1, cur_size, f);
		fclose(f);
	}
}

void __sanitizer_set_death_callback(void (*callback)(void))
	__attribute__((weak));

int main(int argc, char **argv)
{
	double seconds = 0;
	uint64_t runs = 0;
	int i = 1;
	const char *seed = getenv("FUZZ_SEED");

	last_path = getenv("FUZZ_LAST");
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(keep_last);
	if (argc > 2 && !strcmp(argv[1], "-t")) {
		seconds = atof(argv[2]);
		i = 3;
	}
	for (; i < argc; i++)
		add_path(argv[i]);
	for (size_t k = 0; k < ninputs; k++, runs++) {
		cur_data = inputs[k].data;
		cur_size = inputs[k].size;
		LLVMFuzzerTestOneInput(inputs[k].data, inputs[k].size);
	}
	if (seconds > 0) {
		size_t cap = 1 << 16;
		uint8_t *buf = malloc(cap);
		time_t end = time(NULL) + (time_t) seconds;

		rng = seed ? strtoull(seed, NULL, 0) : (uint64_t) time(NULL);
		if (!rng)
			rng = 1;
		printf("driver: seed %llu\n", (unsigned long long) rng);
		fflush(stdout);
		if (!ninputs) {
			static uint8_t empty;
			inputs = calloc(1, sizeof(*inputs));
			inputs[0].data = &empty;
			ninputs = 1;
		}
		while (buf && time(NULL) < end) {
			const struct input *from = &inputs[next() % ninputs];
			size_t len = from->size < cap ? from->size : cap;
			int rounds = 1 + (int) (next() % 8);

			memcpy(buf, from->data, len);
			for (int r = 0; r < rounds; r++)
				len = mutate(buf, len, cap);
			cur_data = buf;
			cur_size = len;
			LLVMFuzzerTestOneInput(buf, len);
			runs++;
		}
		free(buf);
	}
	printf("driver: %llu runs of %zu inputs\n", (unsigned long long) runs,
	       ninputs);
	return 0;
}
