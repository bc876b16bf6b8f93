#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INITIAL_CAPACITY 16

static const int GROWTH[] = {2, 3, 4};

typedef struct {
    char *data;
    size_t len;
    size_t cap;
} Buffer;

Buffer *buffer_new(void) {
    Buffer *b = malloc(sizeof(Buffer));
    if (b == NULL) {
        return NULL;
    }
    b->data = malloc(INITIAL_CAPACITY);
    if (b->data == NULL) {
        free(b);
        return NULL;
    }
    b->len = 0;
    b->cap = INITIAL_CAPACITY;
    return b;
}

static int buffer_grow(Buffer *b, size_t need) {
    size_t cap = b->cap;
    while (cap < need) {
        cap *= 2;
    }
    char *data = realloc(b->data, cap);
    if (data == NULL) {
        return -1;
    }
    b->data = data;
    b->cap = cap;
    return 0;
}

int buffer_append(Buffer *b, const char *s, size_t n) {
    if (b->len + n > b->cap) {
        if (buffer_grow(b, b->len + n) != 0) {
            return -1;
        }
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    return 0;
}

void buffer_free(Buffer *b) {
    if (b == NULL) {
        return;
    }
    free(b->data);
    free(b);
}
