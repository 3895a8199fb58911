#include <stdlib.h>
#include <string.h>

char *copy(const char *text) {
    size_t n = strlen(text);
    char *out = malloc(n + 1);
    memcpy(out, text, n + 1);
    return out;
}

int main(void) {
    char *p = copy("hello");
    free(p);
    return 0;
}
