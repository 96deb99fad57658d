/*
 * driver.c - the standalone fuzz driver: feeds every file named on the
 * command line, and every file of every directory named, to the target's
 * LLVMFuzzerTestOneInput, so that `make test` replays each saved corpus
 * under gcc without libFuzzer. Prints "N inputs replayed" at the end.
 *
 * Test code: linked with one target at a time. It only reads files; a
 * failed property aborts inside the target, which fails the run. Files
 * are replayed in name order, so a failure reproduces in the same place.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Replays one file: 0, or -1 if it cannot be read. */
static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data = NULL;
    size_t len = 0, cap = 0;
    int rc = -1;

    if (f == NULL) {
        fprintf(stderr, "driver: cannot open %s\n", path);
        return -1;
    }
    for (;;) {
        size_t got;
        if (len == cap) {
            size_t ncap = cap != 0 ? cap * 2 : 4096;
            uint8_t *p = realloc(data, ncap);
            if (p == NULL) {
                fprintf(stderr, "driver: out of memory reading %s\n", path);
                goto out;
            }
            data = p;
            cap = ncap;
        }
        got = fread(data + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        fprintf(stderr, "driver: cannot read %s\n", path);
        goto out;
    }
    /* an exact-size copy, so that ASan sees a read past the input */
    {
        uint8_t *exact = malloc(len != 0 ? len : 1);
        if (exact == NULL)
            goto out;
        memcpy(exact, data, len);
        LLVMFuzzerTestOneInput(exact, len);
        free(exact);
    }
    rc = 0;
out:
    free(data);
    fclose(f);
    return rc;
}

/* Replays the regular files of `dir` in name order, skipping dot files;
 * adds their number to *n. 0, or -1 on an unreadable directory or file. */
static int replay_dir(const char *dir, unsigned long *n)
{
    struct dirent **names = NULL;
    int count = scandir(dir, &names, NULL, alphasort);
    int rc = 0;

    if (count < 0) {
        fprintf(stderr, "driver: cannot list %s\n", dir);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        char path[4096];
        struct stat sb;
        if (names[i]->d_name[0] != '.'
            && snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name) < (int)sizeof path
            && stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
            if (replay_file(path) != 0)
                rc = -1;
            else
                (*n)++;
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    unsigned long n = 0;
    int status = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR|FILE...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) {
            fprintf(stderr, "driver: no such file or directory: %s\n", argv[i]);
            status = 2;
        } else if (S_ISDIR(sb.st_mode)) {
            if (replay_dir(argv[i], &n) != 0)
                status = 2;
        } else if (replay_file(argv[i]) != 0)
            status = 2;
        else
            n++;
    }
    printf("%lu inputs replayed\n", n);
    return status;
}
