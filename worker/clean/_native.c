/* worker.clean._native: the segmentation walk and the fingerprint hashes in C (an optional accelerator).

   The pure-Python code in segment.py and fingerprint.py is the reference: this module computes exactly
   what it computes, and worker/clean/native.py turns it on only after checking, at import, that it reads
   selectolax's trees as selectolax's own accessors do and that it gives the same results on canary pages.
   Every table and threshold (block tags, kinds, hidden-class tokens, MAX_DEPTH...) is handed over from
   heuristics.py / segment.py by `configure`; nothing of the heuristics is spelled here.

   Reading the tree. selectolax keeps lexbor's tree in C; its per-node Python API allocates an object per
   property read, which made the Python walk cost ~6 us per element. Here nodes are read as structs and
   attributes through lexbor's own exported functions:
   - Node and CharData below are the layout of lexbor's lxb_dom_node_t and lxb_dom_character_data_t as
     selectolax 1.0 builds them (the fields its lexbor.pxd declares, in that order). They are facts of a
     layout, checked field by field at import against selectolax's accessors (native.py).
   - Attributes (whose element struct selectolax does not declare) are read with the functions selectolax
     calls itself: lxb_dom_element_first_attribute_noi, lxb_dom_element_next_attribute_noi,
     lxb_dom_attr_qualified_name and lxb_dom_attr_value_noi, found with dlsym in selectolax's module.

   Text. The Python walk appends text pieces to one buffer, folds its whitespace (str.split) and cuts it
   into blocks; here each piece's UTF-8 is folded as it is appended (Py_UNICODE_ISSPACE is the predicate
   str.split, str.strip and str.isspace use, so the folding is the same), U+0000 becomes U+FFFD as in
   segment._cut, and counts are kept as the text goes by. A text that is not valid UTF-8 (lexbor passes
   undecodable input bytes through; selectolax decodes them with "replace") makes `segment` return None:
   the caller then runs the Python walk. The pipeline never gets there (it hands lexbor valid UTF-8).

   Extending the walk (a field per element or per block, as segment.Segmentation gains one): add the
   column to the Python walk first, then here: a slot in the E_* or B_* enum (integers) or a list in
   Walk (objects), fill it where open_element() / flush() record the others, and add it to FIELDS and
   to build() in the Segmentation's field order. native.py compares FIELDS with the dataclass's fields
   and keeps the native walk off (with a warning) until they agree, so a column added in Python alone
   costs speed, never correctness.
*/
#define PY_SSIZE_T_CLEAN
#define _GNU_SOURCE /* memmem */
#include <Python.h>
#include <structmember.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------------ */
/* lexbor layout facts                                                                               */

typedef struct Node Node;
struct Node {
    void *event_target;
    uintptr_t tag_id; /* local_name: the tag id of an element, LXB_TAG__TEXT for text... */
    uintptr_t prefix;
    uintptr_t ns;
    void *owner_document;
    Node *next;
    Node *prev;
    Node *parent;
    Node *first_child;
    Node *last_child;
    void *user;
    int type;
};

enum { NODE_ELEMENT = 1, NODE_TEXT = 3 }; /* lxb_dom_node_type_t, the DOM's nodeType values */

typedef struct {
    const unsigned char *data;
    size_t length;
} LexStr;

typedef struct {
    Node node;
    LexStr data;
} CharData;

typedef void *(*first_attr_f)(void *element);
typedef void *(*next_attr_f)(void *attr);
typedef const unsigned char *(*attr_str_f)(void *attr, size_t *len);

static first_attr_f first_attr;
static next_attr_f next_attr;
static attr_str_f attr_name;
static attr_str_f attr_value;
static attr_str_f attr_local_name;

/* ------------------------------------------------------------------------------------------------ */
/* Configuration from segment.py (set once by configure())                                           */

enum { F_BLOCK = 1, F_VOID = 2, F_SKIP = 4 };

static struct {
    int ready;
    uintptr_t text_id, a_id, br_id;
    size_t ntags;            /* size of the per-tag-id tables; ids past it are inline elements */
    unsigned char *flags;    /* F_* per tag id */
    signed char *kind;       /* index into kinds per tag id, -1: the kind of the enclosing block */
    PyObject **names;        /* block tag name per tag id (owned references) */
    PyObject *kinds;         /* tuple of kind names; index 0 is the default ("paragraph") */
    int max_depth;
    Py_ssize_t every;        /* deadline check every this many block-level elements */
    PyObject *hidden_class;  /* segment._hidden_class(str) -> bool */
    PyObject *hidden_style;  /* segment._hidden_style(str) -> bool */
    PyObject *class_hints;   /* tuple of bytes: a class can only be hidden if it holds one of them */
    uint32_t hint_first[256];/* the hints (a bit per index in class_hints) starting with each byte */
    int hint_empty;          /* an empty hint: every class holds it */
    int hint_pairs;          /* hints tested sixteen positions a step by their first two bytes (0: none) */
    unsigned char hint_pair[8][2];
    PyObject *too_many_nodes;/* options.TooManyNodes */
    PyObject *stage;         /* "segment", the budget stage */
    PyObject *empty;         /* "" */
} cfg;

/* ------------------------------------------------------------------------------------------------ */
/* Small growable arrays                                                                             */

typedef struct {
    Py_ssize_t *v;
    Py_ssize_t n, cap;
} Vec;

/* An array of `cap` items of `item` bytes at *v, doubled (256 items at first); -1 with an exception. */
static int grow(void **v, Py_ssize_t *cap, size_t item) {
    Py_ssize_t more = *cap ? 2 * *cap : 256;
    void *p = PyMem_Realloc(*v, (size_t)more * item);
    if (p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *v = p;
    *cap = more;
    return 0;
}

static int vec_push(Vec *a, Py_ssize_t x) {
    if (a->n == a->cap) {
        void *v = a->v;
        if (grow(&v, &a->cap, sizeof *a->v) < 0)
            return -1;
        a->v = v;
    }
    a->v[a->n++] = x;
    return 0;
}

/* References, appended (each push steals one) and handed over as one list: a list's append was ~50
   instructions an item (its growth reallocates every eighth of its size), 975 items a page. */
typedef struct {
    PyObject **v;
    Py_ssize_t n, cap;
} Refs;

static int refs_push(Refs *a, PyObject *x) {
    if (a->n == a->cap) {
        void *v = a->v;
        if (grow(&v, &a->cap, sizeof *a->v) < 0) {
            Py_DECREF(x);
            return -1;
        }
        a->v = v;
    }
    a->v[a->n++] = x;
    return 0;
}

/* The references as a new list (they move to it); NULL with an exception. */
static PyObject *refs_list(Refs *a) {
    PyObject *list = PyList_New(a->n);
    if (list == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < a->n; i++)
        PyList_SET_ITEM(list, i, a->v[i]);
    a->n = 0;
    return list;
}

static void refs_free(Refs *a) {
    for (Py_ssize_t i = 0; i < a->n; i++)
        Py_DECREF(a->v[i]);
    PyMem_Free(a->v);
}

typedef struct {
    unsigned char *b;
    size_t n, cap;
} Buf;

static int buf_reserve(Buf *a, size_t more) {
    if (a->n + more > a->cap) {
        size_t cap = a->cap ? a->cap : 4096;
        while (cap < a->n + more)
            cap *= 2;
        unsigned char *b = PyMem_Realloc(a->b, cap);
        if (b == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        a->b = b;
        a->cap = cap;
    }
    return 0;
}

/* The ints 0 .. INT_CACHE - 1, each made once per process (on first use) and shared, as CPython shares
   -5 .. 256: a segmentation's columns are indices and counts, ~2,200 ints a page on the bench's pages, of
   which a fifth were past 256 and so made and freed anew (PyLong_FromSsize_t and the int's free: ~70 K
   instructions a page). 8,192 ints hold 256 KB. */
enum { INT_CACHE = 8192 };
static PyObject *int_cache[INT_CACHE];

/* A new reference to the int v (NULL with an exception). */
static inline PyObject *int_of(Py_ssize_t v) {
    if ((size_t)v < INT_CACHE) {
        PyObject *x = int_cache[v];
        if (x == NULL && (x = int_cache[v] = PyLong_FromSsize_t(v)) == NULL)
            return NULL;
        return Py_NewRef(x);
    }
    return PyLong_FromSsize_t(v);
}

static PyObject *vec_list(const Vec *a) {
    PyObject *list = PyList_New(a->n);
    if (list == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < a->n; i++) {
        PyObject *x = int_of(a->v[i]);
        if (x == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

/* ------------------------------------------------------------------------------------------------ */
/* UTF-8                                                                                             */

/* Length of the strictly valid UTF-8 sequence at s (n > 0 bytes left) and its code point; 0 when it
   is not one (what Python's strict decoder refuses: overlong forms, surrogates, past U+10FFFF). */
static inline int utf8_decode(const unsigned char *s, size_t n, Py_UCS4 *cp) {
    unsigned char c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c < 0xC2)
        return 0;
    if (c < 0xE0) {
        if (n < 2 || (s[1] & 0xC0) != 0x80)
            return 0;
        *cp = ((Py_UCS4)(c & 0x1F) << 6) | (s[1] & 0x3F);
        return 2;
    }
    if (c < 0xF0) {
        if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
            return 0;
        Py_UCS4 x = ((Py_UCS4)(c & 0x0F) << 12) | ((Py_UCS4)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
        if (x < 0x800 || (x >= 0xD800 && x <= 0xDFFF))
            return 0;
        *cp = x;
        return 3;
    }
    if (c < 0xF5) {
        if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
            return 0;
        Py_UCS4 x = ((Py_UCS4)(c & 0x07) << 18) | ((Py_UCS4)(s[1] & 0x3F) << 12) |
                    ((Py_UCS4)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
        if (x < 0x10000 || x > 0x10FFFF)
            return 0;
        *cp = x;
        return 4;
    }
    return 0;
}

#define INVALID_TEXT (-2) /* not UTF-8: the Python walk decides */

/* Offset of the first code point that is not whitespace, n when there is none, -2 when the text is
   not valid UTF-8 before that point. */
static Py_ssize_t first_nonspace(const unsigned char *s, size_t n) {
    size_t i = 0;
#ifdef __SSE2__
    /* sixteen bytes a step while all are ASCII whitespace (Py_UNICODE_ISSPACE's: 0x09-0x0D, 0x1C-0x1F, space),
       the indentation between elements; the loop below reads from the first other byte */
    const __m128i tab = _mm_set1_epi8(0x09), four = _mm_set1_epi8(4), fs = _mm_set1_epi8(0x1C),
                  three = _mm_set1_epi8(3), blank = _mm_set1_epi8(0x20);
    while (i + 16 <= n) {
        __m128i v = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i a = _mm_sub_epi8(v, tab), b = _mm_sub_epi8(v, fs);
        __m128i space = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(a, four), a),
                                                  _mm_cmpeq_epi8(_mm_min_epu8(b, three), b)),
                                     _mm_cmpeq_epi8(v, blank));
        unsigned other = (unsigned)_mm_movemask_epi8(space) ^ 0xFFFFu;
        if (other) {
            i += (size_t)__builtin_ctz(other);
            break;
        }
        i += 16;
    }
#endif
    while (i < n) {
        if (s[i] < 0x80) { /* ASCII (the indentation between elements): its own code point, no decoding */
            if (!Py_UNICODE_ISSPACE(s[i]))
                return (Py_ssize_t)i;
            i++;
            continue;
        }
        Py_UCS4 cp;
        int len = utf8_decode(s + i, n - i, &cp);
        if (len == 0)
            return INVALID_TEXT;
        if (!Py_UNICODE_ISSPACE(cp))
            return (Py_ssize_t)i;
        i += (size_t)len;
    }
    return (Py_ssize_t)n;
}

/* ASCII-case-insensitive substring test (needle in lower case). */
static int contains_ci(const unsigned char *s, size_t n, const char *needle, size_t m) {
    for (size_t i = 0; i + m <= n; i++) {
        size_t j = 0;
        while (j < m) {
            unsigned char c = s[i + j];
            if (c >= 'A' && c <= 'Z')
                c = (unsigned char)(c + 32);
            if (c != (unsigned char)needle[j])
                break;
            j++;
        }
        if (j == m)
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------------ */
/* The walk                                                                                          */

enum { E_PARENT, E_FIRST, E_END, E_SKIP, E_COLS };    /* integers per element */
enum { B_KIND, B_OWNER, B_START, B_STOP, B_CHARS, B_WORDS, B_LINK_WORDS, B_LINK_CHARS, B_COLS }; /* per block */

typedef struct {
    Refs tags, classes, ids; /* per element, str */
    Vec elem[E_COLS];
    Vec block[B_COLS];
    Buf text; /* every block's folded UTF-8, back to back (B_START, B_STOP) */
    /* the open block */
    int opened;        /* it has text (its first piece is never whitespace only) */
    int pending_br;    /* a <br> was the last thing in it: a second one ends it */
    int pending_space; /* whitespace since its last character: one space before the next */
    Py_ssize_t start, chars, spaces;
    /* its link text, as written: words, and characters from the first non-space on */
    int link_started, link_in_word;
    Py_ssize_t link_len, link_trail, link_words;
    /* limits */
    Py_ssize_t nodes, max_nodes;
    PyObject *budget, *clock; /* clock: the budget's wall clock, read every DEADLINE_EVERY elements */
    double deadline;          /* the budget's wall deadline: past it, budget.check decides */
} Walk;

typedef struct {
    int any, hidden, has_aria, has_style, has_class, has_id;
    const unsigned char *aria, *style, *cls, *id;
    size_t aria_n, style_n, cls_n, id_n;
} Attrs;

/* The attributes the walk looks at; like selectolax's `attributes` dict, the last of a name wins. */
static void read_attrs(Node *el, Attrs *a) {
    memset(a, 0, sizeof *a);
    if (el->type != NODE_ELEMENT)
        return; /* a doctype or other non-element (selectolax: no attributes) */
    for (void *at = first_attr(el); at != NULL; at = next_attr(at)) {
        a->any = 1;
        size_t n = 0;
        const unsigned char *name = attr_name(at, &n);
        if (name == NULL)
            continue;
        const unsigned char **value;
        size_t *value_n;
        if (n == 5 && memcmp(name, "class", 5) == 0) {
            a->has_class = 1, value = &a->cls, value_n = &a->cls_n;
        } else if (n == 2 && memcmp(name, "id", 2) == 0) {
            a->has_id = 1, value = &a->id, value_n = &a->id_n;
        } else if (n == 5 && memcmp(name, "style", 5) == 0) {
            a->has_style = 1, value = &a->style, value_n = &a->style_n;
        } else if (n == 11 && memcmp(name, "aria-hidden", 11) == 0) {
            a->has_aria = 1, value = &a->aria, value_n = &a->aria_n;
        } else {
            if (n == 6 && memcmp(name, "hidden", 6) == 0)
                a->hidden = 1;
            continue;
        }
        size_t vn = 0;
        const unsigned char *v = attr_value(at, &vn);
        *value = v;
        *value_n = v != NULL ? vn : 0;
    }
}

/* segment._hidden_attributes. aria-hidden is compared in C: only "true" in any ASCII case lower-cases to
   "true" (the non-ASCII letters whose lower case is ASCII, U+212A KELVIN SIGN -> k and U+0130 -> i + a
   combining dot, cannot make it). A style is handed to segment._hidden_style when it holds "none" or
   "hidden" in any ASCII case (the same argument: its pre-test on the lower-cased style cannot pass
   otherwise). 1: hidden, 0: not, -1: error. */
static int hidden_by_attributes(const Attrs *a) {
    if (a->hidden)
        return 1;
    if (a->aria != NULL && a->aria_n == 4 && contains_ci(a->aria, 4, "true", 4))
        return 1;
    if (a->style != NULL && a->style_n &&
        (contains_ci(a->style, a->style_n, "none", 4) || contains_ci(a->style, a->style_n, "hidden", 6))) {
        PyObject *style = PyUnicode_DecodeUTF8((const char *)a->style, (Py_ssize_t)a->style_n, "replace");
        if (style == NULL)
            return -1;
        PyObject *r = PyObject_CallOneArg(cfg.hidden_style, style);
        Py_DECREF(style);
        if (r == NULL)
            return -1;
        int hidden = PyObject_IsTrue(r);
        Py_DECREF(r);
        return hidden;
    }
    return 0;
}

static int attrs_hide(const Attrs *a) {
    return a->any && (a->hidden || a->has_aria || a->has_style) ? hidden_by_attributes(a) : 0;
}

/* Python's whitespace (Py_UNICODE_ISSPACE) among ASCII characters, filled at import. */
static unsigned char ascii_space[128];

/* The bits set in a 16-bit mask (__builtin_popcount is a libgcc call without -mpopcnt). */
static inline Py_ssize_t bits16(unsigned x) {
    x = x - ((x >> 1) & 0x5555u);
    x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
    x = (x + (x >> 4)) & 0x0F0Fu;
    return (Py_ssize_t)((x + (x >> 8)) & 0x1Fu);
}

/* Append one text piece to the open block: whitespace folded, U+0000 as U+FFFD; its link text too when
   inside <a>. *nonspace: it held a character that is not whitespace. Inlined twice, with and without
   the link counts (most text is outside links). */
static inline int add_text_as(Walk *w, const unsigned char *s, size_t n, const int in_link, int *nonspace) {
    /* a NUL (1 byte) becomes 3, a space may precede the first; 16 more for the runs' whole-vector stores */
    if (buf_reserve(&w->text, 3 * n + 1 + 16) < 0)
        return -1;
    unsigned char *out = w->text.b + w->text.n;
    Py_ssize_t chars = w->chars, spaces = w->spaces;
    int pending = w->pending_space, seen = 0;
    int link_in_word = w->link_in_word, link_started = w->link_started;
    Py_ssize_t link_words = w->link_words, link_len = w->link_len, link_trail = w->link_trail;
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (c > 0x20 && c < 0x80) {
            /* A run of printable ASCII (no whitespace, no NUL: ascii_space is 0 above 0x20, checked at
               import): what the loop below does character by character, once for the run. */
            seen = 1;
            if (pending) {
                *out++ = ' ';
                chars++;
                spaces++;
                pending = 0;
            }
            size_t j = i;
            Py_ssize_t gaps = 0; /* single spaces between two printable characters inside the run */
#ifdef __SSE2__
            const __m128i blank = _mm_set1_epi8(0x20);
            while (j + 16 <= n) { /* bytes 0x21-0x7F are the signed bytes above 0x20 */
                __m128i v = _mm_loadu_si128((const __m128i *)(s + j));
                _mm_storeu_si128((__m128i *)(out + (j - i)), v);
                unsigned printable = (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(v, blank));
                /* a space with a printable character on both sides is what the loop below makes of it
                   (the same space, a word more): part of the run. The byte before the first is printable
                   (the run's first byte, or the last of a step that went on); the last's next is unknown. */
                unsigned gap = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, blank)) & ((printable << 1) | 1u) &
                               (printable >> 1);
                unsigned m = (printable | gap) ^ 0xFFFFu;
                if (m) {
                    gaps += bits16(gap & ((1u << __builtin_ctz(m)) - 1u));
                    j += (size_t)__builtin_ctz(m);
                    goto run_end;
                }
                gaps += bits16(gap);
                j += 16;
            }
#endif
            while (j < n && s[j] > 0x20 && s[j] < 0x80) {
                out[j - i] = s[j];
                j++;
            }
#ifdef __SSE2__
        run_end:
#endif
            out += j - i;
            chars += (Py_ssize_t)(j - i);
            spaces += gaps;
            if (in_link) {
                link_words += gaps;
                if (!link_in_word)
                    link_words++, link_in_word = 1;
                link_started = 1;
                link_len += (Py_ssize_t)(j - i);
                link_trail = 0;
            }
            i = j;
            continue;
        }
        if (c < 0x80 && ascii_space[c]) { /* a run of ASCII whitespace, as the loop below reads it */
            size_t j = i + 1;
            while (j < n && s[j] < 0x80 && ascii_space[s[j]])
                j++;
            if (chars)
                pending = 1;
            if (in_link) {
                link_in_word = 0;
                if (link_started)
                    link_len += (Py_ssize_t)(j - i), link_trail += (Py_ssize_t)(j - i);
            }
            i = j;
            continue;
        }
        Py_UCS4 cp = c;
        int len = 1, space;
        if (c < 0x80)
            space = ascii_space[c];
        else {
            len = utf8_decode(s + i, n - i, &cp);
            if (len == 0)
                return INVALID_TEXT;
            space = Py_UNICODE_ISSPACE(cp);
        }
        if (space) {
            if (chars)
                pending = 1;
            if (in_link) {
                link_in_word = 0;
                if (link_started)
                    link_len++, link_trail++;
            }
        } else {
            seen = 1;
            if (pending) {
                *out++ = ' ';
                chars++;
                spaces++;
                pending = 0;
            }
            if (len == 1)
                *out++ = c;
            else {
                memcpy(out, s + i, (size_t)len);
                out += len;
            }
            if (c == 0) { /* U+0000, which segment._cut replaces */
                out[-1] = 0xEF;
                *out++ = 0xBF;
                *out++ = 0xBD;
            }
            chars++;
            if (in_link) {
                if (!link_in_word)
                    link_words++, link_in_word = 1;
                link_started = 1;
                link_len++;
                link_trail = 0;
            }
        }
        i += (size_t)len;
    }
    w->text.n = (size_t)(out - w->text.b);
    w->chars = chars;
    w->spaces = spaces;
    w->pending_space = pending;
    if (in_link) {
        w->link_in_word = link_in_word;
        w->link_started = link_started;
        w->link_words = link_words;
        w->link_len = link_len;
        w->link_trail = link_trail;
    }
    *nonspace = seen;
    return 0;
}

static int add_text(Walk *w, const unsigned char *s, size_t n, int in_link, int *nonspace) {
    return in_link ? add_text_as(w, s, n, 1, nonspace) : add_text_as(w, s, n, 0, nonspace);
}

/* The " " the Python walk adds to the link text after every <a>: two adjacent links are two words. */
static void link_space(Walk *w) {
    w->link_in_word = 0;
    if (w->link_started)
        w->link_len++, w->link_trail++;
}

static int flush(Walk *w, Py_ssize_t owner, Py_ssize_t kind) {
    w->pending_br = 0;
    if (!w->opened)
        return 0;
    w->opened = 0;
    Py_ssize_t words = w->spaces + 1, link_words = 0, link_chars = 0;
    if (w->link_started) {
        link_words = w->link_words < words ? w->link_words : words;
        Py_ssize_t lc = w->link_len - w->link_trail;
        link_chars = lc < w->chars ? lc : w->chars;
    }
    Py_ssize_t row[B_COLS];
    row[B_KIND] = kind;
    row[B_OWNER] = owner;
    row[B_START] = w->start;
    row[B_STOP] = (Py_ssize_t)w->text.n;
    row[B_CHARS] = w->chars;
    row[B_WORDS] = words;
    row[B_LINK_WORDS] = link_words;
    row[B_LINK_CHARS] = link_chars;
    for (int c = 0; c < B_COLS; c++)
        if (vec_push(&w->block[c], row[c]) < 0)
            return -1;
    w->start = (Py_ssize_t)w->text.n;
    w->chars = w->spaces = 0;
    w->pending_space = 0;
    w->link_started = w->link_in_word = 0;
    w->link_len = w->link_trail = w->link_words = 0;
    return 0;
}

static int too_many_nodes(Walk *w) {
    PyObject *exc = PyObject_CallFunction(cfg.too_many_nodes, "n", w->max_nodes);
    if (exc != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
    return -1;
}

/* A text node: the text branch of segment.walk (flat: of segment.flat, which leaves pending_br alone). */
static int text_node(Walk *w, Node *node, int in_link, int flat) {
    const LexStr *t = &((CharData *)node)->data;
    if (t->data == NULL || t->length == 0)
        return 0;
    int nonspace;
    if (w->opened) {
        int r = add_text(w, t->data, t->length, in_link, &nonspace);
        if (r < 0)
            return r;
        if (nonspace && !flat)
            w->pending_br = 0;
        return 0;
    }
    Py_ssize_t at = first_nonspace(t->data, t->length);
    if (at < 0)
        return (int)at;
    if ((size_t)at == t->length)
        return 0; /* whitespace only, before any text of the block: indentation */
    w->opened = 1;
    if (!flat)
        w->pending_br = 0;
    /* The whitespace before `at` would be dropped anyway (the block has no text yet). */
    return add_text(w, t->data + at, t->length - (size_t)at, in_link, &nonspace);
}

static int add_newline(Walk *w) {
    int nonspace;
    return add_text(w, (const unsigned char *)"\n", 1, 0, &nonspace);
}

/* segment.flat: a whole subtree as one run of inline text, in document order (no recursion). */
static int flat(Walk *w, Node *root, int in_link) {
    Node *node = root;
    for (;;) {
        int descend = 0;
        uintptr_t tid = node->tag_id;
        if (tid == cfg.text_id) {
            int r = text_node(w, node, in_link, 1);
            if (r < 0)
                return r;
        } else {
            if (++w->nodes > w->max_nodes)
                return too_many_nodes(w);
            unsigned flags = tid < cfg.ntags ? cfg.flags[tid] : 0;
            if (!(flags & F_SKIP)) {
                Attrs a;
                read_attrs(node, &a);
                int hidden = attrs_hide(&a);
                if (hidden < 0)
                    return -1;
                if (hidden)
                    ;
                else if (tid == cfg.br_id) {
                    if (w->opened && add_newline(w) < 0)
                        return -1;
                } else
                    descend = 1;
            }
        }
        if (descend && node->first_child != NULL) {
            node = node->first_child;
            continue;
        }
        while (node != root && node->next == NULL)
            node = node->parent;
        if (node == root)
            return 0;
        node = node->next;
    }
}

static int check_limits(Walk *w) {
    PyObject *now = PyObject_CallNoArgs(w->clock);
    if (now == NULL)
        return -1;
    double t = PyFloat_AsDouble(now);
    Py_DECREF(now);
    if (t == -1.0 && PyErr_Occurred())
        return -1;
    if (t > w->deadline) {
        PyObject *r = PyObject_CallMethod(w->budget, "check", "O", cfg.stage);
        if (r == NULL)
            return -1;
        Py_DECREF(r);
    }
    if (w->nodes > w->max_nodes)
        return too_many_nodes(w);
    return 0;
}

/* A hash of n bytes continuing `h`, eight bytes a step (str's SipHash, which the class/id flags' table used
   first, took ~125 instructions a class or id; the strs are new on every page, so their cached hash never
   helped). */
static size_t memo_hash(const char *p, size_t n, size_t h) {
    uint64_t x = (uint64_t)h;
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        x = (x ^ w) * 0x9E3779B97F4A7C15ULL;
        x ^= x >> 29;
    }
    uint64_t w = 0;
    memcpy(&w, p, n);
    x = (x ^ w ^ ((uint64_t)n << 56)) * 0x9E3779B97F4A7C15ULL;
    return (size_t)(x ^ (x >> 32));
}

/* Class and id values decoded before (ASCII ones), shared across pages: a page repeats its classes
   ("menu-item") and a site its pages', and a decoding was ~210 instructions, 250 a page (~50 K
   instructions). Emptied when half full, like the class/id flags' table: 8,192 slots of 16 bytes and the
   strs they hold. */
enum { ATTR_MEMO_SLOTS = 1 << 13, ATTR_MEMO_LONGEST = 256 };
typedef struct {
    size_t hash;
    PyObject *str; /* an ASCII str, whose bytes are the value's */
} AttrMemo;
static AttrMemo *attr_memo;
static size_t attr_memo_used;

static PyObject *decode_attr(const unsigned char *v, size_t n) {
    if (v == NULL || n == 0)
        return Py_NewRef(cfg.empty);
    if (attr_memo == NULL)
        attr_memo = calloc(ATTR_MEMO_SLOTS, sizeof *attr_memo);
    if (n > ATTR_MEMO_LONGEST || attr_memo == NULL)
        return PyUnicode_DecodeUTF8((const char *)v, (Py_ssize_t)n, "replace");
    size_t h = memo_hash((const char *)v, n, n), k = h & (ATTR_MEMO_SLOTS - 1);
    for (; attr_memo[k].str != NULL; k = (k + 1) & (ATTR_MEMO_SLOTS - 1)) {
        PyObject *s = attr_memo[k].str;
        if (attr_memo[k].hash == h && (size_t)PyUnicode_GET_LENGTH(s) == n &&
            memcmp(PyUnicode_1BYTE_DATA(s), v, n) == 0)
            return Py_NewRef(s);
    }
    PyObject *s = PyUnicode_DecodeUTF8((const char *)v, (Py_ssize_t)n, "replace");
    if (s == NULL || !PyUnicode_IS_ASCII(s))
        return s;
    if (attr_memo_used >= ATTR_MEMO_SLOTS / 2) { /* half full: emptied, so a probe ends soon */
        for (size_t j = 0; j < ATTR_MEMO_SLOTS; j++)
            Py_XDECREF(attr_memo[j].str);
        memset(attr_memo, 0, ATTR_MEMO_SLOTS * sizeof *attr_memo);
        attr_memo_used = 0;
        k = h & (ATTR_MEMO_SLOTS - 1);
    }
    attr_memo[k].hash = h;
    attr_memo[k].str = Py_NewRef(s);
    attr_memo_used++;
    return s;
}

/* Whether a class hint starts at cls[i]. */
static inline int hint_at(const unsigned char *cls, size_t n, size_t i) {
    for (uint32_t maybe = cfg.hint_first[cls[i]]; maybe; maybe &= maybe - 1) {
        PyObject *b = PyTuple_GET_ITEM(cfg.class_hints, __builtin_ctz(maybe));
        size_t m = (size_t)PyBytes_GET_SIZE(b);
        if (m <= n - i && memcmp(cls + i, PyBytes_AS_STRING(b), m) == 0)
            return 1;
    }
    return 0;
}

/* segment._hidden_class on the class attribute, after segment's cheap pre-test (substrings). */
static int hidden_class(const unsigned char *cls, size_t n, PyObject *cls_str) {
    /* Whether it holds a hint: one pass, each position compared with the hints starting with its byte. */
    int hint = cfg.hint_empty;
    size_t i = 0;
#ifdef __SSE2__
    /* Sixteen positions a step: only those holding a hint's first two bytes are compared with the hints (a
       class's letters start one often: "n", "s", "h"; the byte-by-byte pass was 60 K instructions a page). */
    if (cfg.hint_pairs > 0)
        for (; i + 17 <= n && !hint; i += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(cls + i));
            __m128i y = _mm_loadu_si128((const __m128i *)(cls + i + 1));
            __m128i m = _mm_setzero_si128();
            for (int k = 0; k < cfg.hint_pairs; k++)
                m = _mm_or_si128(m, _mm_and_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8((char)cfg.hint_pair[k][0])),
                                                  _mm_cmpeq_epi8(y, _mm_set1_epi8((char)cfg.hint_pair[k][1]))));
            for (unsigned bits = (unsigned)_mm_movemask_epi8(m); bits && !hint; bits &= bits - 1)
                hint = hint_at(cls, n, i + (size_t)__builtin_ctz(bits));
        }
#endif
    for (; i < n && !hint; i++)
        hint = hint_at(cls, n, i);
    if (!hint)
        return 0;
    PyObject *r = PyObject_CallOneArg(cfg.hidden_class, cls_str);
    if (r == NULL)
        return -1;
    int hidden = PyObject_IsTrue(r);
    Py_DECREF(r);
    return hidden;
}

static int walk(Walk *w, Node *child, Py_ssize_t cur, Py_ssize_t kind, int in_link, int depth);

/* A block-level element: a new element of the segmentation, its subtree walked, its text flushed. */
static int block_element(Walk *w, Node *node, uintptr_t tid, Py_ssize_t cur, Py_ssize_t kind, int in_link,
                         int depth) {
    Attrs a;
    read_attrs(node, &a);
    int hidden = attrs_hide(&a);
    if (hidden)
        return hidden < 0 ? -1 : 0; /* as if it were not there: it does not end a block */
    if (w->opened && flush(w, cur, kind) < 0)
        return -1;
    PyObject *cls = a.has_class ? decode_attr(a.cls, a.cls_n) : Py_NewRef(cfg.empty);
    if (cls == NULL)
        return -1;
    if (a.cls != NULL && a.cls_n) {
        hidden = hidden_class(a.cls, a.cls_n, cls);
        if (hidden) {
            Py_DECREF(cls);
            return hidden < 0 ? -1 : 0;
        }
    }
    PyObject *id = a.has_id ? decode_attr(a.id, a.id_n) : Py_NewRef(cfg.empty);
    if (id == NULL) {
        Py_DECREF(cls);
        return -1;
    }
    Py_ssize_t idx = w->tags.n;
    if (idx % cfg.every == 0 && check_limits(w) < 0) {
        Py_DECREF(cls);
        Py_DECREF(id);
        return -1;
    }
    if (refs_push(&w->tags, Py_NewRef(cfg.names[tid])) < 0) {
        Py_DECREF(cls);
        Py_DECREF(id);
        return -1;
    }
    if (refs_push(&w->classes, cls) < 0) {
        Py_DECREF(id);
        return -1;
    }
    if (refs_push(&w->ids, id) < 0)
        return -1;
    Py_ssize_t row[E_COLS];
    row[E_PARENT] = cur;
    row[E_FIRST] = w->block[B_KIND].n;
    row[E_END] = -1;
    row[E_SKIP] = -1;
    for (int c = 0; c < E_COLS; c++)
        if (vec_push(&w->elem[c], row[c]) < 0)
            return -1;
    Py_ssize_t inner = cfg.kind[tid] >= 0 ? cfg.kind[tid] : kind;
    if (node->first_child != NULL) {
        int r = walk(w, node->first_child, idx, inner, in_link, depth + 1);
        if (r < 0)
            return r;
    }
    if (flush(w, idx, inner) < 0)
        return -1;
    w->elem[E_END].v[idx] = w->block[B_KIND].n;
    w->elem[E_SKIP].v[idx] = w->tags.n;
    return 0;
}

/* segment.walk: the children of one element, from `child` on. */
static int walk(Walk *w, Node *child, Py_ssize_t cur, Py_ssize_t kind, int in_link, int depth) {
    for (; child != NULL; child = child->next) {
        uintptr_t tid = child->tag_id;
        int r = 0;
        if (tid == cfg.text_id) {
            r = text_node(w, child, in_link, 0);
            if (r < 0)
                return r;
            continue;
        }
        w->nodes++;
        unsigned flags = tid < cfg.ntags ? cfg.flags[tid] : 0;
        if (flags & F_SKIP)
            continue; /* never text a reader sees: not entered */
        if (flags & F_BLOCK) {
            r = depth >= cfg.max_depth ? flat(w, child, in_link)
                                       : block_element(w, child, tid, cur, kind, in_link, depth);
        } else if (tid == cfg.br_id) {
            Attrs a;
            read_attrs(child, &a);
            int hidden = a.any ? hidden_by_attributes(&a) : 0;
            if (hidden < 0)
                return -1;
            if (hidden)
                ;
            else if (w->pending_br)
                r = flush(w, cur, kind);
            else if (w->opened) {
                r = add_newline(w);
                w->pending_br = 1;
            }
        } else if (flags & F_VOID) {
            /* no children, no text */
        } else if (depth >= cfg.max_depth) {
            r = flat(w, child, in_link || tid == cfg.a_id);
        } else { /* an inline element */
            Attrs a;
            read_attrs(child, &a);
            int hidden = attrs_hide(&a);
            if (hidden)
                r = hidden < 0 ? -1 : 0;
            else {
                if (child->first_child != NULL)
                    r = walk(w, child->first_child, cur, kind, in_link || tid == cfg.a_id, depth + 1);
                if (r == 0 && tid == cfg.a_id)
                    link_space(w);
            }
        }
        if (r < 0)
            return r;
    }
    return 0;
}

static void walk_free(Walk *w) {
    refs_free(&w->tags);
    refs_free(&w->classes);
    refs_free(&w->ids);
    Py_XDECREF(w->clock);
    for (int c = 0; c < E_COLS; c++)
        PyMem_Free(w->elem[c].v);
    for (int c = 0; c < B_COLS; c++)
        PyMem_Free(w->block[c].v);
    PyMem_Free(w->text.b);
}

/* Field order of segment.Segmentation. */
static const char *const FIELDS[] = {"tags",  "classes", "ids",   "parents", "firsts",     "ends",      "skips",
                                     "texts", "kinds",   "owners", "chars",  "words", "link_words", "link_chars"};
#define NFIELDS ((Py_ssize_t)(sizeof FIELDS / sizeof FIELDS[0]))

static PyObject *block_texts(Walk *w) {
    Py_ssize_t n = w->block[B_KIND].n;
    PyObject *list = PyList_New(n);
    if (list == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        const char *s = (const char *)w->text.b + w->block[B_START].v[i];
        Py_ssize_t len = w->block[B_STOP].v[i] - w->block[B_START].v[i];
        PyObject *t;
        if (len == w->block[B_CHARS].v[i]) { /* ASCII */
            t = PyUnicode_New(len, 127);
            if (t != NULL)
                memcpy(PyUnicode_DATA(t), s, (size_t)len);
        } else
            t = PyUnicode_DecodeUTF8(s, len, NULL);
        if (t == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *block_kinds(Walk *w) {
    Py_ssize_t n = w->block[B_KIND].n;
    PyObject *list = PyList_New(n);
    if (list == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++)
        PyList_SET_ITEM(list, i, Py_NewRef(PyTuple_GET_ITEM(cfg.kinds, w->block[B_KIND].v[i])));
    return list;
}

/* The Segmentation's fields, in FIELDS order. */
static PyObject *build(Walk *w) {
    PyObject *parts[NFIELDS] = {
        refs_list(&w->tags),
        refs_list(&w->classes),
        refs_list(&w->ids),
        vec_list(&w->elem[E_PARENT]),
        vec_list(&w->elem[E_FIRST]),
        vec_list(&w->elem[E_END]),
        vec_list(&w->elem[E_SKIP]),
        block_texts(w),
        block_kinds(w),
        vec_list(&w->block[B_OWNER]),
        vec_list(&w->block[B_CHARS]),
        vec_list(&w->block[B_WORDS]),
        vec_list(&w->block[B_LINK_WORDS]),
        vec_list(&w->block[B_LINK_CHARS]),
    };
    PyObject *out = PyTuple_New(NFIELDS);
    for (Py_ssize_t i = 0; i < NFIELDS; i++) {
        if (parts[i] == NULL || out == NULL) {
            for (Py_ssize_t j = i; j < NFIELDS; j++)
                Py_XDECREF(parts[j]);
            Py_XDECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, parts[i]);
    }
    return out;
}

PyDoc_STRVAR(segment_doc,
             "segment(node, root_tag, root_link, budget, max_nodes) -> tuple | None\n\n"
             "segment.segment on the element at address `node` (LexborNode.mem_id): the Segmentation's fields\n"
             "in FIELDS order, or None when a text is not valid UTF-8 (the Python walk then decides).");

static PyObject *native_segment(PyObject *self, PyObject *args) {
    unsigned long long address;
    PyObject *root_tag, *budget;
    int root_link;
    Py_ssize_t max_nodes;
    if (!PyArg_ParseTuple(args, "KUpOn", &address, &root_tag, &root_link, &budget, &max_nodes))
        return NULL;
    if (!cfg.ready) {
        PyErr_SetString(PyExc_RuntimeError, "worker.clean._native is not configured");
        return NULL;
    }
    Node *root = (Node *)(uintptr_t)address;
    Walk w;
    memset(&w, 0, sizeof w);
    w.max_nodes = max_nodes;
    w.budget = budget;
    PyObject *result = NULL;
    /* The budget's wall clock and deadline: past it, budget.check reads the CPU clock (options.Budget). */
    w.clock = PyObject_GetAttrString(budget, "wall");
    PyObject *deadline = PyObject_GetAttrString(budget, "wall_deadline");
    if (deadline != NULL) {
        w.deadline = PyFloat_AsDouble(deadline);
        Py_DECREF(deadline);
    }
    if (w.clock == NULL || PyErr_Occurred())
        goto done;
    if (refs_push(&w.tags, Py_NewRef(root_tag)) < 0 || refs_push(&w.classes, Py_NewRef(cfg.empty)) < 0 ||
        refs_push(&w.ids, Py_NewRef(cfg.empty)) < 0)
        goto done;
    Py_ssize_t row[E_COLS] = {-1, 0, -1, -1};
    for (int c = 0; c < E_COLS; c++)
        if (vec_push(&w.elem[c], row[c]) < 0)
            goto done;
    int r = root->first_child != NULL ? walk(&w, root->first_child, 0, 0, root_link, 0) : 0;
    if (r == INVALID_TEXT) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    if (r < 0)
        goto done;
    if (w.nodes > w.max_nodes) {
        too_many_nodes(&w);
        goto done;
    }
    if (flush(&w, 0, 0) < 0)
        goto done;
    w.elem[E_END].v[0] = w.block[B_KIND].n;
    w.elem[E_SKIP].v[0] = w.tags.n;
    result = build(&w);
done:
    walk_free(&w);
    return result;
}

/* ------------------------------------------------------------------------------------------------ */
/* Fingerprints (fingerprint.fingerprint_segmentation)                                               */

/* CRC-32 (the IEEE polynomial, reflected, as zlib.crc32) eight bytes a step, and Adler-32 (as
   zlib.adler32): the two halves of fingerprint.block_hash. The tables are built at import. */
static uint32_t crc_table[8][256];

static void crc_init(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[0][i] = c;
    }
    for (int t = 1; t < 8; t++)
        for (int i = 0; i < 256; i++)
            crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xFF];
}

static inline uint32_t le32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The CRC-32 register (inverted, as zlib keeps it) after n more bytes, eight a step. */
static uint32_t crc32_table_step(uint32_t c, const unsigned char *p, size_t n) {
    while (n >= 8) {
        uint32_t a = le32(p) ^ c, b = le32(p + 4);
        c = crc_table[7][a & 0xFF] ^ crc_table[6][(a >> 8) & 0xFF] ^ crc_table[5][(a >> 16) & 0xFF] ^
            crc_table[4][a >> 24] ^ crc_table[3][b & 0xFF] ^ crc_table[2][(b >> 8) & 0xFF] ^
            crc_table[1][(b >> 16) & 0xFF] ^ crc_table[0][b >> 24];
        p += 8;
        n -= 8;
    }
    while (n--)
        c = crc_table[0][(c ^ *p++) & 0xFF] ^ (c >> 8);
    return c;
}

static uint32_t crc32_of(const unsigned char *p, size_t n) {
    return crc32_table_step(0xFFFFFFFFu, p, n) ^ 0xFFFFFFFFu;
}

/* Adler-32's modulus, and the most bytes before its second sum can pass 2^32 (zlib's NMAX). */
enum { ADLER_BASE = 65521, ADLER_NMAX = 5552 };

static uint32_t adler32_of(const unsigned char *p, size_t n) {
    uint32_t a = 1, b = 0;
    while (n) {
        size_t k = n < ADLER_NMAX ? n : ADLER_NMAX;
        n -= k;
        for (; k >= 8; k -= 8, p += 8) /* eight bytes a step: the inner loop unrolls, a step per byte cost */
            for (int j = 0; j < 8; j++) {   /* as much as the sums */
                a += p[j];
                b += a;
            }
        while (k--) {
            a += *p++;
            b += a;
        }
        a %= ADLER_BASE;
        b %= ADLER_BASE;
    }
    return b << 16 | a;
}

/* Both hashes with x86 vector instructions where the CPU has them (asked once, at import): 73% of a page's
   normalised bytes are in texts of 64 bytes or more, where the table steps above cost ~1.5 and ~1 cycle a
   byte. The values are zlib's whichever path computes them: native.py's canaries and the tests compare
   them with zlib.crc32 / zlib.adler32 on texts of every length around the vector widths. */
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define VECTOR_HASHES 1
static int vector_hashes; /* the CPU has PCLMULQDQ, SSSE3 and SSE4.1 */
static int vector_avx2;   /* the CPU has AVX2: the block model's trees, the page's UTF-8, the guard's scan */

/* The CRC-32 register after len bytes (len >= 64, a multiple of 16), folded 64 bytes a step by carry-less
   multiplication: Gopal et al., "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ Instruction"
   (Intel, 2009), with the bit-reflected constants of its appendix for the IEEE polynomial, as zlib's and
   Chromium's crc32_simd.c use them. */
__attribute__((target("pclmul,sse4.1"))) static uint32_t crc32_fold(const unsigned char *buf, size_t len,
                                                                     uint32_t crc) {
    const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
    const __m128i k5k0 = _mm_set_epi64x(0, 0x0163cd6124);
    const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);
    __m128i x0, x1, x2, x3, x4, x5, x6, x7, x8;
    x1 = _mm_loadu_si128((const __m128i *)(buf + 0x00));
    x2 = _mm_loadu_si128((const __m128i *)(buf + 0x10));
    x3 = _mm_loadu_si128((const __m128i *)(buf + 0x20));
    x4 = _mm_loadu_si128((const __m128i *)(buf + 0x30));
    x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
    x0 = k1k2;
    buf += 64;
    len -= 64;
    while (len >= 64) { /* four lanes folded side by side */
        x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
        x6 = _mm_clmulepi64_si128(x2, x0, 0x00);
        x7 = _mm_clmulepi64_si128(x3, x0, 0x00);
        x8 = _mm_clmulepi64_si128(x4, x0, 0x00);
        x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
        x2 = _mm_clmulepi64_si128(x2, x0, 0x11);
        x3 = _mm_clmulepi64_si128(x3, x0, 0x11);
        x4 = _mm_clmulepi64_si128(x4, x0, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, x5), _mm_loadu_si128((const __m128i *)(buf + 0x00)));
        x2 = _mm_xor_si128(_mm_xor_si128(x2, x6), _mm_loadu_si128((const __m128i *)(buf + 0x10)));
        x3 = _mm_xor_si128(_mm_xor_si128(x3, x7), _mm_loadu_si128((const __m128i *)(buf + 0x20)));
        x4 = _mm_xor_si128(_mm_xor_si128(x4, x8), _mm_loadu_si128((const __m128i *)(buf + 0x30)));
        buf += 64;
        len -= 64;
    }
    x0 = k3k4; /* the four lanes folded into one */
    x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
    x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
    x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
    x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x3), x5);
    x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
    x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x4), x5);
    while (len >= 16) { /* then 16 bytes a step */
        x2 = _mm_loadu_si128((const __m128i *)buf);
        x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
        x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
        buf += 16;
        len -= 16;
    }
    /* 128 bits to 64, then Barrett's reduction to 32 */
    x2 = _mm_clmulepi64_si128(x1, x0, 0x10);
    x3 = _mm_setr_epi32(~0, 0, ~0, 0);
    x1 = _mm_srli_si128(x1, 8);
    x1 = _mm_xor_si128(x1, x2);
    x0 = k5k0;
    x2 = _mm_srli_si128(x1, 4);
    x1 = _mm_and_si128(x1, x3);
    x1 = _mm_clmulepi64_si128(x1, x0, 0x00);
    x1 = _mm_xor_si128(x1, x2);
    x0 = poly;
    x2 = _mm_and_si128(x1, x3);
    x2 = _mm_clmulepi64_si128(x2, x0, 0x10);
    x2 = _mm_and_si128(x2, x3);
    x2 = _mm_clmulepi64_si128(x2, x0, 0x00);
    x1 = _mm_xor_si128(x1, x2);
    return (uint32_t)_mm_extract_epi32(x1, 1);
}

/* Adler-32 32 bytes a step: s1 gains the bytes' sum (psadbw), s2 their sum weighted 32..1 (pmaddubsw) plus
   32 times s1 before the step (those s1 summed, shifted by 5 at the end), as Chromium's adler32_simd.c. */
__attribute__((target("ssse3"))) static uint32_t adler32_vector(const unsigned char *buf, size_t len) {
    uint32_t s1 = 1, s2 = 0;
    size_t blocks = len / 32;
    len -= blocks * 32;
    const __m128i tap1 = _mm_setr_epi8(32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17);
    const __m128i tap2 = _mm_setr_epi8(16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
    const __m128i zero = _mm_setzero_si128(), ones = _mm_set1_epi16(1);
    while (blocks) {
        size_t n = ADLER_NMAX / 32; /* steps before s2 must be reduced */
        if (n > blocks)
            n = blocks;
        blocks -= n;
        __m128i v_ps = _mm_set_epi32(0, 0, 0, (int)(s1 * (uint32_t)n));
        __m128i v_s2 = _mm_set_epi32(0, 0, 0, (int)s2), v_s1 = zero;
        do {
            const __m128i b1 = _mm_loadu_si128((const __m128i *)buf);
            const __m128i b2 = _mm_loadu_si128((const __m128i *)(buf + 16));
            v_ps = _mm_add_epi32(v_ps, v_s1);
            v_s1 = _mm_add_epi32(v_s1, _mm_sad_epu8(b1, zero));
            v_s2 = _mm_add_epi32(v_s2, _mm_madd_epi16(_mm_maddubs_epi16(b1, tap1), ones));
            v_s1 = _mm_add_epi32(v_s1, _mm_sad_epu8(b2, zero));
            v_s2 = _mm_add_epi32(v_s2, _mm_madd_epi16(_mm_maddubs_epi16(b2, tap2), ones));
            buf += 32;
        } while (--n);
        v_s2 = _mm_add_epi32(v_s2, _mm_slli_epi32(v_ps, 5));
        v_s1 = _mm_add_epi32(v_s1, _mm_shuffle_epi32(v_s1, _MM_SHUFFLE(1, 0, 3, 2)));
        s1 += (uint32_t)_mm_cvtsi128_si32(v_s1);
        v_s2 = _mm_add_epi32(v_s2, _mm_shuffle_epi32(v_s2, _MM_SHUFFLE(2, 3, 0, 1)));
        v_s2 = _mm_add_epi32(v_s2, _mm_shuffle_epi32(v_s2, _MM_SHUFFLE(1, 0, 3, 2)));
        s2 = (uint32_t)_mm_cvtsi128_si32(v_s2);
        s1 %= ADLER_BASE;
        s2 %= ADLER_BASE;
    }
    while (len--) { /* under 32 bytes: no overflow */
        s1 += *buf++;
        s2 += s1;
    }
    return (s2 % ADLER_BASE) << 16 | (s1 % ADLER_BASE);
}
#endif

/* Texts this long or longer take the vector path (the CRC folds 64 bytes at its first step). */
enum { VECTOR_HASH_MIN = 64 };

static inline uint64_t block_hash(const unsigned char *p, size_t n) {
#ifdef VECTOR_HASHES
    if (vector_hashes && n >= VECTOR_HASH_MIN) {
        size_t k = n & ~(size_t)15;
        uint32_t c = crc32_table_step(crc32_fold(p, k, 0xFFFFFFFFu), p + k, n - k) ^ 0xFFFFFFFFu;
        return (uint64_t)c << 32 | adler32_vector(p, n);
    }
#endif
    return (uint64_t)crc32_of(p, n) << 32 | adler32_of(p, n);
}

/* The first character beyond ASCII that is a decimal digit (what \d matches: U+0660, ARABIC-INDIC DIGIT
   ZERO): the characters below it need no look-up. A test checks it against str.isdecimal. */
enum { FIRST_DECIMAL_BEYOND_ASCII = 0x660 };

/* One character of fingerprint.normalise: decimal digits left out, ASCII letters lower-cased, UTF-8 with
   lone surrogates as three bytes each ("surrogatepass"). */
static inline unsigned char *normalise_char(unsigned char *o, Py_UCS4 c) {
    if (c < 0x80) {
        if (c < '0' || c > '9')
            *o++ = (unsigned char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    } else if (c >= FIRST_DECIMAL_BEYOND_ASCII && Py_UNICODE_ISDECIMAL(c)) {
        /* left out */
    } else if (c < 0x800) {
        *o++ = (unsigned char)(0xC0 | c >> 6);
        *o++ = (unsigned char)(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        *o++ = (unsigned char)(0xE0 | c >> 12);
        *o++ = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        *o++ = (unsigned char)(0x80 | (c & 0x3F));
    } else {
        *o++ = (unsigned char)(0xF0 | c >> 18);
        *o++ = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
        *o++ = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        *o++ = (unsigned char)(0x80 | (c & 0x3F));
    }
    return o;
}

/* Eight ASCII characters (one a byte, in text order) normalised at once, when they hold no digit: every
   byte is below 0x80, so adding to it never carries into the next, and its high bit says whether it reached
   the bound. 0 (nothing written) when a character is a digit or beyond ASCII. */
static inline int normalise_word(uint64_t w, unsigned char **o) {
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
    if (w & high)
        return 0;
    if ((w + ones * (0x80 - '0')) & ~(w + ones * (0x80 - '9' - 1)) & high)
        return 0;
    uint64_t upper = (w + ones * (0x80 - 'A')) & ~(w + ones * (0x80 - 'Z' - 1)) & high;
    w |= upper >> 2; /* 0x20 in each capital's byte */
    memcpy(*o, &w, 8);
    *o += 8;
    return 1;
}

#ifdef __SSE2__
/* Sixteen ASCII characters (one a byte) normalised at once into o, when they hold no digit: 0 (nothing
   written) otherwise. Bytes below 0x80 compare alike as signed and unsigned. */
static inline int normalise_vector(__m128i v, unsigned char *o) {
    const __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                                        _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
    if (_mm_movemask_epi8(_mm_or_si128(v, digit)))
        return 0;
    const __m128i upper = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('A' - 1)),
                                        _mm_cmplt_epi8(v, _mm_set1_epi8('Z' + 1)));
    _mm_storeu_si128((__m128i *)o, _mm_or_si128(v, _mm_and_si128(upper, _mm_set1_epi8(0x20))));
    return 1;
}
#endif

/* fingerprint.normalise of a whitespace-folded text into out (emptied first), sixteen characters a step
   (SSE2; eight without it) where they are ASCII without a digit (most of a text, in every storage kind:
   one curly quote makes an English text two bytes a character). */
static int normalise(PyObject *text, Buf *out) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), i = 0;
    out->n = 0;
    if (buf_reserve(out, 4 * (size_t)n + 16) < 0) /* + 16: a vector step stores 16 bytes */
        return -1;
    unsigned char *o = out->b;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    if (kind == PyUnicode_1BYTE_KIND) {
        const unsigned char *s = data;
#ifdef __SSE2__
        for (; i + 16 <= n; i += 16) {
            if (normalise_vector(_mm_loadu_si128((const __m128i *)(s + i)), o)) {
                o += 16;
                continue;
            }
            for (Py_ssize_t j = i; j < i + 16; j++)
                o = normalise_char(o, s[j]);
        }
#endif
        for (; i + 8 <= n; i += 8) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            if (!normalise_word(w, &o))
                for (Py_ssize_t j = i; j < i + 8; j++)
                    o = normalise_char(o, s[j]);
        }
    } else if (kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *u = data;
#ifdef __SSE2__
        const __m128i high = _mm_set1_epi16((short)0xFF80);
        for (; i + 16 <= n; i += 16) {
            const __m128i lo = _mm_loadu_si128((const __m128i *)(u + i));
            const __m128i hi = _mm_loadu_si128((const __m128i *)(u + i + 8));
            /* all sixteen below 0x80: narrowed to bytes (packus saturates nothing then) */
            if (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(_mm_or_si128(lo, hi), high),
                                                  _mm_setzero_si128())) == 0xFFFF &&
                normalise_vector(_mm_packus_epi16(lo, hi), o)) {
                o += 16;
                continue;
            }
            for (Py_ssize_t j = i; j < i + 16; j++)
                o = normalise_char(o, u[j]);
        }
#endif
        for (; i + 8 <= n; i += 8) {
            const Py_UCS2 *c = u + i;
            uint64_t w = 0;
            for (int k = 7; k >= 0; k--) /* byte k is character k, as memcpy reads it above */
                w = w << 8 | (c[k] < 0x80 ? c[k] : 0x80);
#if PY_BIG_ENDIAN
            w = __builtin_bswap64(w);
#endif
            if (!normalise_word(w, &o))
                for (int k = 0; k < 8; k++)
                    o = normalise_char(o, c[k]);
        }
    }
    for (; i < n; i++)
        o = normalise_char(o, PyUnicode_READ(kind, data, i));
    out->n = (size_t)(o - out->b);
    return 0;
}

static PyObject *cfg_empty_str; /* "" */

/* The signature hash of (tag, class, id) is fingerprint._signature_hash's, asked once per key and kept
   here: a memo of a pure function (cleared when full, as fingerprint's own), so no result depends on
   what was seen before. */
typedef struct {
    Py_hash_t hash;
    PyObject *tag, *cls, *id; /* NULL: an empty slot */
    uint64_t value;
} SigEntry;

static struct {
    int ready;
    PyObject *signature_hash; /* fingerprint._signature_hash((tag, class, id)) -> int */
    unsigned char stable_ascii[128]; /* ASCII characters a stable id may hold (fingerprint._STABLE_ASCII) */
    PyObject *page_state;     /* fingerprint.PAGE_STATE_TAGS, a tuple of str */
    Py_ssize_t max_class_tokens; /* fingerprint.MAX_CLASS_TOKENS */
    uint64_t base;            /* fingerprint._BASE */
    Py_ssize_t max;           /* entries before the memo is cleared */
    SigEntry *slots;
    size_t mask;              /* slots - 1 (a power of two, at least twice max) */
    Py_ssize_t used;
} sig;

static void sig_clear(void) {
    if (sig.slots == NULL)
        return;
    for (size_t i = 0; i <= sig.mask; i++) {
        SigEntry *e = &sig.slots[i];
        if (e->tag != NULL) {
            Py_DECREF(e->tag);
            Py_DECREF(e->cls);
            Py_DECREF(e->id);
            e->tag = e->cls = e->id = NULL;
        }
    }
    sig.used = 0;
}

static inline int str_eq(PyObject *a, PyObject *b) {
    if (a == b)
        return 1;
    Py_ssize_t n = PyUnicode_GET_LENGTH(a);
    return n == PyUnicode_GET_LENGTH(b) && PyUnicode_KIND(a) == PyUnicode_KIND(b) &&
           memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), (size_t)n * PyUnicode_KIND(a)) == 0;
}

/* An id holding an ASCII character no stable token holds is left out of the signature: the key is then
   (tag, class, ""), whose signature is the same, and which pages share (ids such as "post-4711" are unique
   to a page, so each would be a miss). Non-ASCII characters are left to the Python code (some lower-case
   into ASCII). */
static int unstable_id(PyObject *id) {
    if (PyUnicode_KIND(id) != PyUnicode_1BYTE_KIND)
        return 0;
    const unsigned char *s = PyUnicode_1BYTE_DATA(id);
    for (Py_ssize_t i = 0, n = PyUnicode_GET_LENGTH(id); i < n; i++)
        if (s[i] < 0x80 && !sig.stable_ascii[s[i]])
            return 1;
    return 0;
}

/* Signatures of ASCII keys, built here as fingerprint._compose builds them (the Python code stays the
   reference: native.py compares both on canary keys before the C fingerprints run):
   - a stable token is 1 to STABLE_TOKEN_MAX characters, a letter first, then letters, "_" or "-", any case
     (fingerprint._STABLE_TOKEN on the lower-cased token);
   - an id is stable when it is a stable token without camel humps (fingerprint._CAMEL_HUMPS: a lower-case
     letter before an upper-case one twice, or two upper-case letters before a lower-case one);
   - the class part is the first max_class_tokens stable tokens of the lower-cased class list, sorted. */
enum { STABLE_TOKEN_MAX = 40 };

static int ascii_lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }
static int ascii_is_lower(int c) { return c >= 'a' && c <= 'z'; }
static int ascii_is_upper(int c) { return c >= 'A' && c <= 'Z'; }

static int stable_token_ascii(const unsigned char *s, Py_ssize_t n) {
    if (n < 1 || n > STABLE_TOKEN_MAX || !ascii_is_lower(ascii_lower(s[0])))
        return 0;
    for (Py_ssize_t i = 1; i < n; i++) {
        int c = ascii_lower(s[i]);
        if (!ascii_is_lower(c) && c != '_' && c != '-')
            return 0;
    }
    return 1;
}

static int camel_humps(const unsigned char *s, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i + 2 < n; i++)
        if (ascii_is_upper(s[i]) && ascii_is_upper(s[i + 1]) && ascii_is_lower(s[i + 2]))
            return 1;
    Py_ssize_t first = -1; /* the first lower-upper pair */
    for (Py_ssize_t i = 0; i + 1 < n; i++)
        if (ascii_is_lower(s[i]) && ascii_is_upper(s[i + 1])) {
            if (first < 0)
                first = i;
            else if (i >= first + 2)
                return 1;
        }
    return 0;
}

static int cmp_token(const unsigned char *a, Py_ssize_t na, const unsigned char *b, Py_ssize_t nb) {
    int c = memcmp(a, b, (size_t)(na < nb ? na : nb));
    return c ? c : (na > nb) - (na < nb);
}

/* 1 and *value set; 0 when the key is Python's to sign (a character beyond ASCII); -1 on an error. */
static int ascii_signature(PyObject *tag, PyObject *cls, PyObject *id, uint64_t *value) {
    if (!PyUnicode_IS_ASCII(tag) || !PyUnicode_IS_ASCII(cls) || !PyUnicode_IS_ASCII(id))
        return 0;
    const unsigned char *t = PyUnicode_1BYTE_DATA(tag), *c = PyUnicode_1BYTE_DATA(cls), *d = PyUnicode_1BYTE_DATA(id);
    Py_ssize_t nt = PyUnicode_GET_LENGTH(tag), nc = PyUnicode_GET_LENGTH(cls), nd = PyUnicode_GET_LENGTH(id);
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(sig.page_state); k++)
        if (str_eq(tag, PyTuple_GET_ITEM(sig.page_state, k))) {
            *value = block_hash(t, (size_t)nt);
            return 1;
        }
    /* tag, "#" and the id, then "." and each kept class token */
    size_t cap = (size_t)nt + 1 + (size_t)nd + (size_t)sig.max_class_tokens * (STABLE_TOKEN_MAX + 1);
    unsigned char stack[512], *buf = cap <= sizeof stack ? stack : PyMem_Malloc(cap);
    if (buf == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    size_t n = (size_t)nt;
    memcpy(buf, t, n);
    if (nd && stable_token_ascii(d, nd) && !camel_humps(d, nd)) {
        buf[n++] = '#';
        for (Py_ssize_t k = 0; k < nd; k++)
            buf[n++] = (unsigned char)ascii_lower(d[k]);
    }
    /* the kept class tokens (start, length), in class-list order, then sorted */
    Py_ssize_t starts[8], lens[8], kept = 0, limit = sig.max_class_tokens < 8 ? sig.max_class_tokens : 8;
    for (Py_ssize_t i = 0; i < nc && kept < limit;) {
        while (i < nc && ascii_space[c[i]])
            i++;
        Py_ssize_t start = i;
        while (i < nc && !ascii_space[c[i]])
            i++;
        if (i > start && stable_token_ascii(c + start, i - start)) {
            starts[kept] = start;
            lens[kept++] = i - start;
        }
    }
    unsigned char low[8][STABLE_TOKEN_MAX];
    for (Py_ssize_t k = 0; k < kept; k++)
        for (Py_ssize_t j = 0; j < lens[k]; j++)
            low[k][j] = (unsigned char)ascii_lower(c[starts[k] + j]);
    Py_ssize_t order[8];
    for (Py_ssize_t k = 0; k < kept; k++) { /* insertion sort of at most max_class_tokens */
        Py_ssize_t j = k;
        while (j > 0 && cmp_token(low[order[j - 1]], lens[order[j - 1]], low[k], lens[k]) > 0) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
    for (Py_ssize_t k = 0; k < kept; k++) {
        buf[n++] = '.';
        memcpy(buf + n, low[order[k]], (size_t)lens[order[k]]);
        n += (size_t)lens[order[k]];
    }
    *value = block_hash(buf, n);
    if (buf != stack)
        PyMem_Free(buf);
    return 1;
}

/* PyObject_Hash of an exact str: the hash it keeps once computed, read without the call. */
static inline Py_hash_t str_hash(PyObject *s) {
    Py_hash_t h = ((PyASCIIObject *)s)->hash;
    return h != -1 ? h : PyObject_Hash(s);
}

/* 0 and *value set, or -1 with an exception. */
static int signature_hash(PyObject *tag, PyObject *cls, PyObject *id, uint64_t *value) {
    if (!PyUnicode_CheckExact(tag) || !PyUnicode_CheckExact(cls) || !PyUnicode_CheckExact(id)) {
        PyErr_SetString(PyExc_TypeError, "tags, classes and ids must be str");
        return -1;
    }
    if (PyUnicode_GET_LENGTH(id) && unstable_id(id))
        id = cfg_empty_str;
    Py_hash_t ht = str_hash(tag), hc = str_hash(cls), hi = str_hash(id);
    if (ht == -1 || hc == -1 || hi == -1)
        return -1;
    Py_hash_t h = (Py_hash_t)(((size_t)ht * 1000003u ^ (size_t)hc) * 1000003u ^ (size_t)hi);
    size_t i = (size_t)h & sig.mask;
    for (;;) {
        SigEntry *e = &sig.slots[i];
        if (e->tag == NULL)
            break;
        if (e->hash == h && str_eq(e->tag, tag) && str_eq(e->cls, cls) && str_eq(e->id, id)) {
            *value = e->value;
            return 0;
        }
        i = (i + 1) & sig.mask;
    }
    uint64_t v;
    int signed_here = ascii_signature(tag, cls, id, &v);
    if (signed_here < 0)
        return -1;
    if (!signed_here) {
        PyObject *key = PyTuple_Pack(3, tag, cls, id);
        if (key == NULL)
            return -1;
        PyObject *r = PyObject_CallOneArg(sig.signature_hash, key);
        Py_DECREF(key);
        if (r == NULL)
            return -1;
        v = PyLong_AsUnsignedLongLong(r);
        Py_DECREF(r);
        if (v == (unsigned long long)-1 && PyErr_Occurred())
            return -1;
    }
    *value = v;
    if (sig.used >= sig.max) { /* full: start again (the slot found above is then empty as well) */
        sig_clear();
        i = (size_t)h & sig.mask;
    }
    SigEntry *e = &sig.slots[i];
    e->hash = h;
    e->tag = Py_NewRef(tag);
    e->cls = Py_NewRef(cls);
    e->id = Py_NewRef(id);
    e->value = v;
    sig.used++;
    return 0;
}

/* An exact int of at most one digit (|x| < 2^30: every index and count of a page) read in place into *v
   (1), not through PyLong_AsSsize_t's call; 0 for any other (3.11's layout: ob_size is the signed count
   of 30-bit digits; later versions always answer 0). */
static inline int small_int(PyObject *x, Py_ssize_t *v) {
#if PY_VERSION_HEX < 0x030C0000
    Py_ssize_t size = Py_SIZE(x);
    if (size >= -1 && size <= 1) {
        *v = size * (Py_ssize_t)((PyLongObject *)x)->ob_digit[0];
        return 1;
    }
#else
    (void)x;
    (void)v;
#endif
    return 0;
}

/* PyLong_AsSsize_t of an int, small_int's read where it can. */
static inline Py_ssize_t as_ssize(PyObject *x) {
    Py_ssize_t v;
    return small_int(x, &v) ? v : PyLong_AsSsize_t(x);
}

/* Read list[i] as an index in [lo, hi]; -1 (no exception) when it is not one. */
static Py_ssize_t index_at(PyObject *list, Py_ssize_t i, Py_ssize_t lo, Py_ssize_t hi) {
    PyObject *x = PyList_GET_ITEM(list, i);
    if (!PyLong_CheckExact(x))
        return -1;
    Py_ssize_t v;
    if (small_int(x, &v))
        return v >= lo && v <= hi ? v : -1;
    v = PyLong_AsSsize_t(x);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    return v >= lo && v <= hi ? v : -1;
}

PyDoc_STRVAR(fingerprint_doc,
             "fingerprint(texts, tags, classes, ids, parents, firsts, ends) -> (elems, text_fps, elem_paths) | None\n\n"
             "fingerprint.fingerprint_segmentation's columns as the bytes of an array('q') and two array('Q'):\n"
             "the text-carrying elements, their text fingerprints, and every element's path fingerprint (0\n"
             "without text) plus <body>'s once more at the end; None when the columns are not a segmentation's\n"
             "(the Python code then decides).");

/* A page's signed keys by their objects' addresses (direct-mapped: a collision only costs a memo look-up):
   two thirds of a page's text-carrying elements repeat a key of the page (bench pages: 96 distinct keys
   for 253 elements), which then costs no hashing, probing nor comparing of strs. */
enum { PAGE_SIGS = 128 };
typedef struct {
    PyObject *tag, *cls, *id;
    uint64_t value;
} PageSig;

static inline size_t page_sig_slot(PyObject *tag, PyObject *cls, PyObject *id) {
    uint64_t x = (uint64_t)(uintptr_t)tag ^ (uint64_t)(uintptr_t)cls * 0x9E3779B97F4A7C15ull ^
                 (uint64_t)(uintptr_t)id * 0xC2B2AE3D27D4EB4Full;
    return (size_t)(x * 0x9E3779B97F4A7C15ull >> 57) & (PAGE_SIGS - 1);
}

/* How many items ahead the fingerprint loops prefetch the objects they will read. */
#define PREFETCH_AHEAD 8

static PyObject *native_fingerprint(PyObject *self, PyObject *args) {
    PyObject *texts, *tags, *classes, *ids, *parents, *firsts, *ends;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!", &PyList_Type, &texts, &PyList_Type, &tags, &PyList_Type,
                          &classes, &PyList_Type, &ids, &PyList_Type, &parents, &PyList_Type, &firsts,
                          &PyList_Type, &ends))
        return NULL;
    if (!sig.ready) {
        PyErr_SetString(PyExc_RuntimeError, "worker.clean._native fingerprints are not configured");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(tags), nb = PyList_GET_SIZE(texts), kept = 0;
    if (PyList_GET_SIZE(classes) != n || PyList_GET_SIZE(ids) != n || PyList_GET_SIZE(parents) != n ||
        PyList_GET_SIZE(firsts) != n || PyList_GET_SIZE(ends) != n)
        Py_RETURN_NONE;
    PyObject *result = NULL;
    uint64_t *sums = PyMem_Malloc(((size_t)nb + 1) * sizeof *sums);
    /* 0: no text (never asked for); written for every element below, or zeroed where nothing is */
    uint64_t *path = PyMem_Malloc(((size_t)n + 1) * sizeof *path);
    int64_t *keep = PyMem_Malloc(((size_t)n + 1) * sizeof *keep);
    uint64_t *fps = PyMem_Malloc(((size_t)n + 1) * sizeof *fps);
    Buf norm = {0};
    /* the page's own (tag, class, id) objects already signed: the lists hold them for the call, so the same
       three pointers are the same key (most elements of a page share a few keys) */
    PageSig page_sigs[PAGE_SIGS];
    memset(page_sigs, 0, sizeof page_sigs);
    if (sums == NULL || path == NULL || keep == NULL || fps == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (n == 0)
        goto zeros;
    Py_ssize_t lo0 = index_at(firsts, 0, 0, nb), hi0 = index_at(ends, 0, 0, nb);
    if (lo0 < 0 || hi0 < 0)
        goto invalid;
    if (hi0 <= lo0)
        goto zeros;
    /* Block hashes summed: an element's text hash is a difference of prefix sums (mod 2^64, as the
       Python code's & mask). */
    sums[0] = 0;
    for (Py_ssize_t b = 0; b < nb; b++) {
        PyObject *t = PyList_GET_ITEM(texts, b);
        if (b + PREFETCH_AHEAD < nb) /* the texts are scattered over the heap: ask for them early */
            __builtin_prefetch(PyList_GET_ITEM(texts, b + PREFETCH_AHEAD));
        if (!PyUnicode_CheckExact(t))
            goto invalid;
        if (normalise(t, &norm) < 0)
            goto done;
        sums[b + 1] = sums[b] + block_hash(norm.b, norm.n);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (i + PREFETCH_AHEAD < n) {
            __builtin_prefetch(PyList_GET_ITEM(firsts, i + PREFETCH_AHEAD));
            __builtin_prefetch(PyList_GET_ITEM(ends, i + PREFETCH_AHEAD));
            __builtin_prefetch(PyList_GET_ITEM(classes, i + PREFETCH_AHEAD));
            __builtin_prefetch(PyList_GET_ITEM(parents, i + PREFETCH_AHEAD));
        }
        Py_ssize_t lo = i ? index_at(firsts, i, 0, nb) : lo0, hi = i ? index_at(ends, i, 0, nb) : hi0;
        if (lo < 0 || hi < 0)
            goto invalid;
        if (hi <= lo) {
            path[i] = 0;
            continue; /* no text here, so none below either: the path is never needed */
        }
        Py_ssize_t parent = i ? index_at(parents, i, 0, i - 1) : 0;
        if (parent < 0)
            goto invalid;
        uint64_t known;
        PyObject *tag = PyList_GET_ITEM(tags, i), *cls = PyList_GET_ITEM(classes, i), *id = PyList_GET_ITEM(ids, i);
        PageSig *seen = &page_sigs[page_sig_slot(tag, cls, id)];
        if (seen->tag == tag && seen->cls == cls && seen->id == id)
            known = seen->value;
        else {
            if (signature_hash(tag, cls, id, &known) < 0)
                goto done;
            *seen = (PageSig){tag, cls, id, known};
        }
        /* Path hash: a polynomial in signature hashes (FNV prime), as fingerprint_segmentation's. */
        path[i] = i ? path[parent] * sig.base + known : known;
        keep[kept] = i;
        fps[kept++] = path[i] ^ (sums[hi] - sums[lo]);
    }
    path[n] = path[0]; /* a block right in <body> has parent -1: its position is <body>'s */
    goto packed;
zeros:
    memset(path, 0, ((size_t)n + 1) * sizeof *path);
packed:
    result = Py_BuildValue("(y#y#y#)", (const char *)keep, kept * 8, (const char *)fps, kept * 8,
                           (const char *)path, (n + 1) * 8);
    goto done;
invalid:
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(sums);
    PyMem_Free(path);
    PyMem_Free(keep);
    PyMem_Free(fps);
    PyMem_Free(norm.b);
    return result;
}

PyDoc_STRVAR(text_hashes_doc, "text_hashes(texts) -> list[int]\n\n"
                              "fingerprint.block_hash of each whitespace-folded text's normalised form.");

static PyObject *native_text_hashes(PyObject *self, PyObject *texts) {
    if (!PyList_Check(texts))
        return PyErr_Format(PyExc_TypeError, "texts must be a list");
    Py_ssize_t n = PyList_GET_SIZE(texts);
    PyObject *out = PyList_New(n);
    Buf norm = {0};
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PyList_GET_ITEM(texts, i);
        PyObject *h = NULL;
        if (!PyUnicode_Check(t))
            PyErr_SetString(PyExc_TypeError, "texts must be str");
        else if (normalise(t, &norm) == 0)
            h = PyLong_FromUnsignedLongLong(block_hash(norm.b, norm.n));
        if (h == NULL) {
            Py_DECREF(out);
            PyMem_Free(norm.b);
            return NULL;
        }
        PyList_SET_ITEM(out, i, h);
    }
    PyMem_Free(norm.b);
    return out;
}

PyDoc_STRVAR(configure_fingerprint_doc,
             "configure_fingerprint(signature_hash, base, memo_max, stable_ascii, page_state, max_class_tokens)\n\n"
             "Hand over fingerprint.py's signature hash (asked for keys beyond ASCII), path polynomial base,\n"
             "memo size, the ASCII characters a stable id may hold, the page-state tags and the most class\n"
             "tokens a signature keeps.");

static PyObject *native_configure_fingerprint(PyObject *self, PyObject *args) {
    PyObject *fn;
    unsigned long long base;
    Py_ssize_t max;
    const char *stable;
    Py_ssize_t nstable, max_tokens;
    PyObject *page_state;
    if (!PyArg_ParseTuple(args, "OKns#O!n", &fn, &base, &max, &stable, &nstable, &PyTuple_Type, &page_state,
                          &max_tokens))
        return NULL;
    if (max_tokens < 0 || max_tokens > 8)
        return PyErr_Format(PyExc_ValueError, "max_class_tokens %zd (at most 8)", max_tokens);
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(page_state); k++)
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(page_state, k)))
            return PyErr_Format(PyExc_TypeError, "page-state tags must be str");
    if (sig.ready) {
        PyErr_SetString(PyExc_RuntimeError, "worker.clean._native fingerprints are configured once");
        return NULL;
    }
    if (max <= 0 || max > (1 << 24))
        return PyErr_Format(PyExc_ValueError, "memo size %zd", max);
    size_t slots = 2;
    while (slots < 2 * (size_t)max)
        slots *= 2;
    sig.slots = PyMem_Calloc(slots, sizeof(SigEntry));
    if (sig.slots == NULL)
        return PyErr_NoMemory();
    sig.mask = slots - 1;
    for (Py_ssize_t i = 0; i < nstable; i++)
        if ((unsigned char)stable[i] < 0x80)
            sig.stable_ascii[(unsigned char)stable[i]] = 1;
    if (cfg_empty_str == NULL && (cfg_empty_str = PyUnicode_FromStringAndSize("", 0)) == NULL)
        return NULL;
    sig.signature_hash = Py_NewRef(fn);
    sig.page_state = Py_NewRef(page_state);
    sig.max_class_tokens = max_tokens;
    sig.base = base;
    sig.max = max;
    sig.ready = 1;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(signature_doc, "signature(tag, cls, id) -> int\n\n"
                            "The signature hash the C fingerprints use for this key (fingerprint._signature_hash).");

static PyObject *native_signature(PyObject *self, PyObject *args) {
    PyObject *tag, *cls, *id;
    if (!PyArg_ParseTuple(args, "UUU", &tag, &cls, &id))
        return NULL;
    if (!sig.ready) {
        PyErr_SetString(PyExc_RuntimeError, "configure_fingerprint first");
        return NULL;
    }
    uint64_t v;
    if (signature_hash(tag, cls, id, &v) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(v);
}

static PyObject *native_clear_memo(PyObject *self, PyObject *unused) {
    sig_clear();
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------------------------------ */
/* The site memory's counts (sitememory._count_page_python, _template_python) on its arrays in place    */

/* An array.array's storage when it holds `n` items of `itemsize` bytes in the format `format`. */
static int array_buffer(PyObject *a, Py_buffer *view, const char *format, Py_ssize_t itemsize, int writable) {
    if (PyObject_GetBuffer(a, view, (writable ? PyBUF_WRITABLE : 0) | PyBUF_FORMAT | PyBUF_ND) < 0)
        return -1;
    if (view->itemsize != itemsize || view->format == NULL || strcmp(view->format, format) != 0) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_TypeError, "expected an array of '%s' (%zd bytes an item)", format, itemsize);
        return -1;
    }
    return 0;
}

/* The site memory's two columns: fingerprints as array('Q') and counts as array('f'); both views
   acquired, or neither (with the exception set). */
static int table_buffers(PyObject *fps_obj, PyObject *counts_obj, Py_buffer *fv, Py_buffer *cv, int writable) {
    if (array_buffer(fps_obj, fv, "Q", 8, 0) < 0)
        return -1;
    if (array_buffer(counts_obj, cv, "f", 4, writable) < 0) {
        PyBuffer_Release(fv);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(count_page_doc,
             "count_page(fps, counts, page, unit) -> bytes | None\n\n"
             "sitememory._count_page_python: add `unit` to counts[i] (float32, as array('f') stores it) for\n"
             "every fps[i] among the page's fingerprints (a set of ints or an array('Q'); each counted once,\n"
             "0 never), and return the page's fingerprints that fps lacks, sorted, as the bytes of an\n"
             "array('Q'); None, with the arrays untouched, when one of the page's is no 64-bit unsigned int.");

/* Ascending, in place: insertion sort for short runs, else quicksort on the median of three (qsort's call
   per comparison dominated). */
static void quicksort_u64(uint64_t *v, Py_ssize_t n) {
    while (n > 16) {
        uint64_t a = v[0], b = v[n / 2], c = v[n - 1];
        uint64_t pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        Py_ssize_t i = 0, j = n - 1;
        for (;;) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i >= j)
                break;
            uint64_t t = v[i];
            v[i++] = v[j];
            v[j--] = t;
        }
        /* [0, j] <= pivot <= [j + 1, n): recurse into the smaller part, loop on the larger */
        if (j + 1 < n - j - 1) {
            quicksort_u64(v, j + 1);
            v += j + 1;
            n -= j + 1;
        } else {
            quicksort_u64(v + j + 1, n - j - 1);
            n = j + 1;
        }
    }
    for (Py_ssize_t i = 1; i < n; i++) {
        uint64_t x = v[i];
        Py_ssize_t j = i;
        while (j > 0 && v[j - 1] > x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

/* Ascending, in place. What is sorted here are hashes (a page's new fingerprints: ~270 on a site's first
   page, half the pages of the bench mix; new structure positions), spread evenly over 64 bits: they are
   first dealt into ~n/2 buckets by their top bits (two linear passes), then each bucket (two values on
   average) is sorted on its own. The quicksort's mispredicted comparisons were two thirds of a page's
   counting (count_page 7.4 -> 4.3 us a call, replayed over the bench mix's pages). Uneven values only
   make the buckets' sorts longer: quicksorts still. */
static void sort_u64(uint64_t *v, Py_ssize_t n) {
    if (n < 64) {
        quicksort_u64(v, n);
        return;
    }
    int bits = 5;
    while (bits < 20 && ((Py_ssize_t)1 << (bits + 1)) <= n / 2)
        bits++;
    size_t buckets = (size_t)1 << bits;
    int shift = 64 - bits;
    uint64_t *dealt = PyMem_Malloc((size_t)n * sizeof *dealt);
    Py_ssize_t *end = PyMem_Calloc(buckets + 1, sizeof *end);
    if (dealt == NULL || end == NULL) { /* no room for the buckets: the quicksort alone */
        PyMem_Free(dealt);
        PyMem_Free(end);
        quicksort_u64(v, n);
        return;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        end[(v[i] >> shift) + 1]++;
    for (size_t b = 0; b < buckets; b++)
        end[b + 1] += end[b]; /* end[b]: where bucket b starts */
    for (Py_ssize_t i = 0; i < n; i++)
        dealt[end[v[i] >> shift]++] = v[i]; /* end[b]: where bucket b ends */
    memcpy(v, dealt, (size_t)n * sizeof *v);
    for (size_t b = 0, lo = 0; b < buckets; lo = (size_t)end[b++])
        if (end[b] - (Py_ssize_t)lo > 1)
            quicksort_u64(v + lo, end[b] - (Py_ssize_t)lo);
    PyMem_Free(dealt);
    PyMem_Free(end);
}

static inline size_t slot_of(uint64_t x, size_t slots) {
    return (size_t)(x * 0x9E3779B97F4A7C15ull >> 17) & (slots - 1);
}

/* The page's fingerprints into want (m of them at most), 0 left out; -1 with an exception, -2 when one
   is no 64-bit unsigned int (the Python code then decides). */
static Py_ssize_t page_values(PyObject *page, uint64_t *want, Py_ssize_t m) {
    Py_ssize_t k = 0;
    if (!PyAnySet_Check(page)) { /* an array('Q'), checked by the caller */
        Py_buffer pv;
        if (array_buffer(page, &pv, "Q", 8, 0) < 0)
            return -1;
        const uint64_t *v = pv.buf;
        for (Py_ssize_t j = 0; j < pv.len / 8 && k < m; j++)
            if (v[j])
                want[k++] = v[j];
        PyBuffer_Release(&pv);
        return k;
    }
    PyObject *it = PyObject_GetIter(page), *item;
    if (it == NULL)
        return -1;
    while ((item = PyIter_Next(it)) != NULL) {
        unsigned long long v = PyLong_Check(item) ? PyLong_AsUnsignedLongLong(item) : (unsigned long long)-1;
        int bad = !PyLong_Check(item) || (v == (unsigned long long)-1 && PyErr_Occurred());
        Py_DECREF(item);
        if (bad || k >= m) {
            PyErr_Clear();
            Py_DECREF(it);
            return -2;
        }
        if (v)
            want[k++] = v;
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : k;
}

static PyObject *native_count_page(PyObject *self, PyObject *args) {
    PyObject *fps_obj, *counts_obj, *page;
    double unit;
    if (!PyArg_ParseTuple(args, "OOOd", &fps_obj, &counts_obj, &page, &unit))
        return NULL;
    Py_ssize_t m;
    if (PyAnySet_Check(page))
        m = PySet_GET_SIZE(page);
    else if (PyObject_CheckBuffer(page) && !PyBytes_Check(page)) {
        Py_buffer pv;
        if (array_buffer(page, &pv, "Q", 8, 0) < 0)
            return NULL;
        m = pv.len / 8;
        PyBuffer_Release(&pv);
    } else
        return PyErr_Format(PyExc_TypeError, "page must be a set or an array('Q')");
    Py_buffer fv, cv;
    if (table_buffers(fps_obj, counts_obj, &fv, &cv, 1) < 0)
        return NULL;
    const uint64_t *fps = fv.buf;
    float *counts = cv.buf;
    Py_ssize_t n = fv.len / 8;
    PyObject *result = NULL;
    size_t slots = 16;
    while (slots < 2 * (size_t)n)
        slots *= 2;
    uint64_t *want = PyMem_Malloc((size_t)(m ? m : 1) * sizeof *want);
    uint32_t *table = PyMem_Calloc(slots, sizeof *table); /* index into fps + 1; 0 is empty */
    /* Tracked fingerprints counted on this page already (each is counted once a page); the untracked
       ones' repeats go after their sort. No hash set of the page's values to zero. */
    unsigned char *hit = PyMem_Calloc((size_t)n + 1, 1);
    if (cv.len / 4 != n) {
        PyErr_SetString(PyExc_ValueError, "fps and counts differ in length");
        goto done;
    }
    if (want == NULL || table == NULL || hit == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    /* The page's fingerprints first: one that is no 64-bit unsigned int leaves everything to Python. */
    Py_ssize_t k = page_values(page, want, m);
    if (k == -2) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    if (k < 0)
        goto done;
    if ((uint64_t)n >= UINT32_MAX) { /* more than a table of 32-bit indices holds: Python decides */
        result = Py_NewRef(Py_None);
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) { /* a fingerprint tracked twice: the last index wins, as a dict's */
        size_t h = slot_of(fps[i], slots);
        while (table[h] && fps[table[h] - 1] != fps[i])
            h = (h + 1) & (slots - 1);
        table[h] = (uint32_t)i + 1;
    }
    Py_ssize_t fresh = 0; /* the page's untracked fingerprints, gathered at the front of want */
    for (Py_ssize_t j = 0; j < k; j++) {
        uint64_t x = want[j];
        size_t h = slot_of(x, slots);
        while (table[h] && fps[table[h] - 1] != x)
            h = (h + 1) & (slots - 1);
        if (table[h]) {
            if (hit[table[h] - 1])
                continue; /* counted once per page */
            hit[table[h] - 1] = 1;
            float *c = &counts[table[h] - 1];
            *c = (float)((double)*c + unit); /* counts[i] += unit: a double sum stored as float32 */
        } else
            want[fresh++] = x;
    }
    sort_u64(want, fresh);
    Py_ssize_t distinct = 0; /* each untracked fingerprint once */
    for (Py_ssize_t j = 0; j < fresh; j++)
        if (!distinct || want[j] != want[distinct - 1])
            want[distinct++] = want[j];
    fresh = distinct;
    result = PyBytes_FromStringAndSize((const char *)want, fresh * (Py_ssize_t)sizeof *want);
done:
    PyMem_Free(want);
    PyMem_Free(table);
    PyMem_Free(hit);
    PyBuffer_Release(&fv);
    PyBuffer_Release(&cv);
    return result;
}

/* The k-th smallest (from 0) of v[0, n), v reordered: Hoare's selection, linear on average, where a sort
   (qsort's call per comparison) was most of a pruning. Counts are finite, so every comparison is an order. */
static float select_float(float *v, Py_ssize_t n, Py_ssize_t k) {
    Py_ssize_t lo = 0, hi = n - 1;
    while (lo < hi) {
        float pivot = v[lo + (hi - lo) / 2];
        Py_ssize_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                float t = v[i];
                v[i++] = v[j];
                v[j--] = t;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            break; /* between the parts: equal to the pivot */
    }
    return v[k];
}

PyDoc_STRVAR(prune_doc, "prune(fps, counts, keep) -> (bytes, bytes) | None\n\n"
                        "sitememory._prune_python: the `keep` highest counts and their fingerprints (among\n"
                        "counts equal to the cut, the earliest tracked go first), as the bytes of an array('Q')\n"
                        "and an array('f'); None when there is nothing to drop.");

static PyObject *native_prune(PyObject *self, PyObject *args) {
    PyObject *fps_obj, *counts_obj;
    Py_ssize_t keep;
    if (!PyArg_ParseTuple(args, "OOn", &fps_obj, &counts_obj, &keep))
        return NULL;
    Py_buffer fv, cv;
    if (table_buffers(fps_obj, counts_obj, &fv, &cv, 0) < 0)
        return NULL;
    const uint64_t *fps = fv.buf;
    const float *counts = cv.buf;
    Py_ssize_t n = cv.len / 4, drop = n - keep;
    PyObject *result = NULL;
    float *ranked = NULL;
    uint64_t *kept_fps = NULL;
    float *kept_counts = NULL;
    if (fv.len / 8 != n || keep <= 0 || drop <= 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    ranked = PyMem_Malloc((size_t)n * sizeof *ranked);
    kept_fps = PyMem_Malloc((size_t)keep * sizeof *kept_fps);
    kept_counts = PyMem_Malloc((size_t)keep * sizeof *kept_counts);
    if (ranked == NULL || kept_fps == NULL || kept_counts == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    memcpy(ranked, counts, (size_t)n * sizeof *ranked);
    float cut = select_float(ranked, n, drop - 1); /* sorted(values)[drop - 1] */
    Py_ssize_t below = 0;                          /* bisect_left(sorted(values), cut) */
    for (Py_ssize_t i = 0; i < n; i++)
        below += counts[i] < cut;
    Py_ssize_t ties = drop - below, m = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (counts[i] < cut)
            continue;
        if (counts[i] == cut && ties > 0) {
            ties--;
            continue;
        }
        if (m < keep) {
            kept_fps[m] = fps[i];
            kept_counts[m] = counts[i];
        }
        m++;
    }
    if (m != keep) { /* cannot happen with finite counts; leave it to the Python code */
        result = Py_NewRef(Py_None);
        goto done;
    }
    result = Py_BuildValue("(y#y#)", (const char *)kept_fps, keep * 8, (const char *)kept_counts, keep * 4);
done:
    PyMem_Free(ranked);
    PyMem_Free(kept_fps);
    PyMem_Free(kept_counts);
    PyBuffer_Release(&fv);
    PyBuffer_Release(&cv);
    return result;
}

PyDoc_STRVAR(template_set_doc, "template_set(fps, counts, bar) -> frozenset[int]\n\n"
                               "sitememory._template_python: the fps[i] with bar <= counts[i].");

static PyObject *native_template_set(PyObject *self, PyObject *args) {
    PyObject *fps_obj, *counts_obj;
    double bar;
    if (!PyArg_ParseTuple(args, "OOd", &fps_obj, &counts_obj, &bar))
        return NULL;
    Py_buffer fv, cv;
    if (table_buffers(fps_obj, counts_obj, &fv, &cv, 0) < 0)
        return NULL;
    const uint64_t *fps = fv.buf;
    const float *counts = cv.buf;
    Py_ssize_t n = fv.len / 8 < cv.len / 4 ? fv.len / 8 : cv.len / 4; /* as zip stops at the shorter */
    PyObject *kept = PyFrozenSet_New(NULL);
    for (Py_ssize_t i = 0; kept != NULL && i < n; i++) {
        if (!(bar <= (double)counts[i]))
            continue;
        PyObject *x = PyLong_FromUnsignedLongLong(fps[i]);
        if (x == NULL || PySet_Add(kept, x) < 0)
            Py_CLEAR(kept);
        Py_XDECREF(x);
    }
    PyBuffer_Release(&fv);
    PyBuffer_Release(&cv);
    return kept;
}

/* list[i] as an index into a sequence of n items, negative ones counted from its end as Python does;
   0 when it is no such index. */
static int list_index(PyObject *list, Py_ssize_t i, Py_ssize_t n, Py_ssize_t *out) {
    PyObject *x = PyList_GET_ITEM(list, i);
    if (!PyLong_CheckExact(x))
        return 0;
    Py_ssize_t v;
    if (!small_int(x, &v) && (v = PyLong_AsSsize_t(x)) == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (v < 0)
        v += n;
    if (v < 0 || v >= n)
        return 0;
    *out = v;
    return 1;
}

/* ------------------------------------------------------------------------------------------------ */
/* The site memory's structure positions on its arrays (sitememory._page_positions_python,
   _kept_positions_python; template._slot_blocks_python): no set, dict or int object per position or
   block, as the Python code makes them.                                                             */

/* A set of 64-bit values, open-addressed (slots a power of two, 0 standing for an empty slot: the value 0
   is kept apart). */
typedef struct {
    uint64_t *v;
    size_t slots;
    int zero;
} U64Set;

static int u64set_init(U64Set *s, Py_ssize_t most) {
    s->slots = 16;
    while (s->slots < 2 * (size_t)most)
        s->slots *= 2;
    s->zero = 0;
    s->v = PyMem_Calloc(s->slots, sizeof *s->v);
    if (s->v == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* 1 when x was added, 0 when it was there. */
static int u64set_add(U64Set *s, uint64_t x) {
    if (x == 0) {
        int added = !s->zero;
        s->zero = 1;
        return added;
    }
    size_t h = slot_of(x, s->slots);
    while (s->v[h] && s->v[h] != x)
        h = (h + 1) & (s->slots - 1);
    if (s->v[h])
        return 0;
    s->v[h] = x;
    return 1;
}

static int u64set_has(const U64Set *s, uint64_t x) {
    if (x == 0)
        return s->zero;
    size_t h = slot_of(x, s->slots);
    while (s->v[h] && s->v[h] != x)
        h = (h + 1) & (s->slots - 1);
    return s->v[h] != 0;
}

/* pos[b] = paths[parents[owners[b]]] for every block (indices as Python reads them, negative ones from
   the end); 0 when an index is out of range (the Python code then decides), -1 on an error. */
static int block_positions(const uint64_t *paths, Py_ssize_t np, PyObject *parents, PyObject *owners,
                           uint64_t *pos) {
    Py_ssize_t n = PyList_GET_SIZE(parents), nb = PyList_GET_SIZE(owners);
    for (Py_ssize_t b = 0; b < nb; b++) {
        Py_ssize_t owner, parent;
        if (!list_index(owners, b, n, &owner) || !list_index(parents, owner, np, &parent))
            return 0;
        pos[b] = paths[parent];
    }
    return 1;
}

PyDoc_STRVAR(learn_positions_doc,
             "learn_positions(paths, parents, owners, kept, positions, position_seen, position_kept, unit)\n"
             "    -> bytes | None\n\n"
             "sitememory._page_positions_python: add `unit` to position_seen[i] (float32) for every tracked\n"
             "position on the page and to position_kept[i] where a block of `kept` has it; return the kept\n"
             "positions not tracked, sorted, as the bytes of an array('Q'); None, with the arrays untouched,\n"
             "when an index is out of range or the arrays differ in length (the Python code then decides).");

static PyObject *native_learn_positions(PyObject *self, PyObject *args) {
    PyObject *paths_obj, *parents, *owners, *kept, *tracked_obj, *seen_obj, *held_obj;
    double unit;
    if (!PyArg_ParseTuple(args, "OO!O!O!OOOd", &paths_obj, &PyList_Type, &parents, &PyList_Type, &owners,
                          &PyList_Type, &kept, &tracked_obj, &seen_obj, &held_obj, &unit))
        return NULL;
    Py_buffer pv, tv, sv, hv;
    if (array_buffer(paths_obj, &pv, "Q", 8, 0) < 0)
        return NULL;
    if (table_buffers(tracked_obj, seen_obj, &tv, &sv, 1) < 0) {
        PyBuffer_Release(&pv);
        return NULL;
    }
    if (array_buffer(held_obj, &hv, "f", 4, 1) < 0) {
        PyBuffer_Release(&pv);
        PyBuffer_Release(&tv);
        PyBuffer_Release(&sv);
        return NULL;
    }
    const uint64_t *tracked = tv.buf;
    float *seen_counts = sv.buf, *kept_counts = hv.buf;
    Py_ssize_t nb = PyList_GET_SIZE(owners), nk = PyList_GET_SIZE(kept), nt = tv.len / 8;
    PyObject *result = NULL;
    uint64_t *pos = PyMem_Malloc(((size_t)nb + 1) * sizeof *pos);
    uint64_t *fresh = PyMem_Malloc(((size_t)nk + 1) * sizeof *fresh);
    U64Set seen = {0}, held = {0}, known = {0};
    if (pos == NULL || fresh == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (u64set_init(&seen, nb) < 0 || u64set_init(&held, nk) < 0 || u64set_init(&known, nt) < 0)
        goto done;
    if (sv.len / 4 != nt || hv.len / 4 != nt)
        goto invalid;
    int ok = block_positions(pv.buf, pv.len / 8, parents, owners, pos);
    if (ok <= 0)
        goto invalid;
    for (Py_ssize_t b = 0; b < nb; b++)
        u64set_add(&seen, pos[b]);
    Py_ssize_t nfresh = 0;
    for (Py_ssize_t i = 0; i < nt; i++)
        u64set_add(&known, tracked[i]);
    for (Py_ssize_t j = 0; j < nk; j++) {
        Py_ssize_t b;
        if (!list_index(kept, j, nb, &b))
            goto invalid;
        if (u64set_add(&held, pos[b]) && !u64set_has(&known, pos[b]))
            fresh[nfresh++] = pos[b];
    }
    /* Counted once per tracked position (a position tracked twice, which no snapshot holds, would be
       counted at its last index, as the Python code's dict of indices does). */
    U64Set counted = {0};
    if (u64set_init(&counted, nt) < 0)
        goto done;
    for (Py_ssize_t i = nt - 1; i >= 0; i--) {
        uint64_t p = tracked[i];
        if (!u64set_add(&counted, p) || !u64set_has(&seen, p))
            continue;
        seen_counts[i] = (float)((double)seen_counts[i] + unit);
        if (u64set_has(&held, p))
            kept_counts[i] = (float)((double)kept_counts[i] + unit);
    }
    PyMem_Free(counted.v);
    sort_u64(fresh, nfresh);
    result = PyBytes_FromStringAndSize((const char *)fresh, nfresh * (Py_ssize_t)sizeof *fresh);
    goto done;
invalid:
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(pos);
    PyMem_Free(fresh);
    PyMem_Free(seen.v);
    PyMem_Free(held.v);
    PyMem_Free(known.v);
    PyBuffer_Release(&pv);
    PyBuffer_Release(&tv);
    PyBuffer_Release(&sv);
    PyBuffer_Release(&hv);
    return result;
}

PyDoc_STRVAR(slot_blocks_doc,
             "slot_blocks(paths, parents, owners, kept, slots) -> list[int] | None\n\n"
             "template._slot_blocks_python: `kept` plus the blocks whose position is in `slots`, sorted\n"
             "(`kept` itself when no block is); None when an index, a kept block or a slot is not one the C\n"
             "code reads (the Python code then decides).");

static PyObject *native_slot_blocks(PyObject *self, PyObject *args) {
    PyObject *paths_obj, *parents, *owners, *kept, *slots;
    if (!PyArg_ParseTuple(args, "OO!O!O!O!", &paths_obj, &PyList_Type, &parents, &PyList_Type, &owners,
                          &PyList_Type, &kept, &PyFrozenSet_Type, &slots))
        return NULL;
    Py_buffer pv;
    if (array_buffer(paths_obj, &pv, "Q", 8, 0) < 0)
        return NULL;
    Py_ssize_t nb = PyList_GET_SIZE(owners), nk = PyList_GET_SIZE(kept);
    PyObject *result = NULL;
    uint64_t *pos = PyMem_Malloc(((size_t)nb + 1) * sizeof *pos);
    unsigned char *mark = PyMem_Calloc((size_t)nb + 1, 1);
    U64Set wanted = {0};
    if (pos == NULL || mark == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (u64set_init(&wanted, PySet_GET_SIZE(slots)) < 0)
        goto done;
    Py_ssize_t at = 0;
    PyObject *key;
    Py_hash_t hash;
    while (_PySet_NextEntry(slots, &at, &key, &hash)) {
        if (!PyLong_CheckExact(key))
            goto invalid;
        unsigned long long v = PyLong_AsUnsignedLongLong(key);
        if (v == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            goto invalid;
        }
        u64set_add(&wanted, v);
    }
    int ok = block_positions(pv.buf, pv.len / 8, parents, owners, pos);
    if (ok <= 0)
        goto invalid;
    Py_ssize_t extra = 0;
    for (Py_ssize_t b = 0; b < nb; b++)
        if (u64set_has(&wanted, pos[b]))
            mark[b] = 1, extra++;
    if (!extra) {
        result = Py_NewRef(kept);
        goto done;
    }
    for (Py_ssize_t j = 0; j < nk; j++) { /* kept blocks: indices of the page's blocks */
        PyObject *x = PyList_GET_ITEM(kept, j);
        if (!PyLong_CheckExact(x))
            goto invalid;
        Py_ssize_t b = as_ssize(x);
        if (b < 0 || b >= nb) {
            PyErr_Clear();
            goto invalid;
        }
        mark[b] = 1;
    }
    Py_ssize_t m = 0;
    for (Py_ssize_t b = 0; b < nb; b++)
        m += mark[b];
    result = PyList_New(m);
    if (result == NULL)
        goto done;
    for (Py_ssize_t b = 0, k = 0; b < nb; b++) {
        if (!mark[b])
            continue;
        PyObject *v = int_of(b);
        if (v == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, k++, v);
    }
    goto done;
invalid:
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(pos);
    PyMem_Free(mark);
    PyMem_Free(wanted.v);
    PyBuffer_Release(&pv);
    return result;
}

PyDoc_STRVAR(template_strips_doc,
             "template_strips(fps, counts, bar, elems, text_fps, firsts, ends) -> list[int] | None\n\n"
             "template._template_strips_python: the outermost elements (never the root) whose text\n"
             "fingerprint is one of the site's with a count of at least `bar`, in document order; None when\n"
             "an element or its block range is not one the C code reads (the Python code then decides).");

static PyObject *native_template_strips(PyObject *self, PyObject *args) {
    PyObject *fps_obj, *counts_obj, *elems_obj, *text_obj, *firsts, *ends;
    double bar;
    if (!PyArg_ParseTuple(args, "OOdOOO!O!", &fps_obj, &counts_obj, &bar, &elems_obj, &text_obj, &PyList_Type,
                          &firsts, &PyList_Type, &ends))
        return NULL;
    Py_buffer fv, cv, ev, tv;
    if (table_buffers(fps_obj, counts_obj, &fv, &cv, 0) < 0)
        return NULL;
    if (array_buffer(elems_obj, &ev, "q", 8, 0) < 0) {
        PyBuffer_Release(&fv);
        PyBuffer_Release(&cv);
        return NULL;
    }
    if (array_buffer(text_obj, &tv, "Q", 8, 0) < 0) {
        PyBuffer_Release(&fv);
        PyBuffer_Release(&cv);
        PyBuffer_Release(&ev);
        return NULL;
    }
    const uint64_t *fps = fv.buf, *text_fps = tv.buf;
    const float *counts = cv.buf;
    const int64_t *elems = ev.buf;
    Py_ssize_t nf = fv.len / 8 < cv.len / 4 ? fv.len / 8 : cv.len / 4; /* as zip stops at the shorter */
    Py_ssize_t ne = ev.len / 8, n = PyList_GET_SIZE(firsts);
    PyObject *result = NULL;
    U64Set template = {0};
    if (tv.len / 8 != ne || PyList_GET_SIZE(ends) != n)
        goto invalid;
    if (u64set_init(&template, nf) < 0)
        goto done;
    Py_ssize_t held = 0;
    for (Py_ssize_t i = 0; i < nf; i++)
        if (bar <= (double)counts[i])
            held += u64set_add(&template, fps[i]);
    result = PyList_New(0);
    if (result == NULL || !held)
        goto done;
    Py_ssize_t end = -1; /* end block of the last chosen subtree: elements starting before it are inside */
    for (Py_ssize_t k = 0; k < ne; k++) {
        if (!u64set_has(&template, text_fps[k]))
            continue;
        int64_t i = elems[k];
        if (i == 0)
            continue; /* never the root */
        if (i < 0 || i >= n)
            goto invalid;
        Py_ssize_t first = index_at(firsts, i, 0, PY_SSIZE_T_MAX), stop = index_at(ends, i, 0, PY_SSIZE_T_MAX);
        if (first < 0 || stop < 0)
            goto invalid;
        if (first < end)
            continue;
        PyObject *v = PyLong_FromLongLong(i);
        if (v == NULL || PyList_Append(result, v) < 0) {
            Py_XDECREF(v);
            Py_CLEAR(result);
            goto done;
        }
        Py_DECREF(v);
        end = stop;
    }
    goto done;
invalid:
    Py_XDECREF(result);
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(template.v);
    PyBuffer_Release(&fv);
    PyBuffer_Release(&cv);
    PyBuffer_Release(&ev);
    PyBuffer_Release(&tv);
    return result;
}

PyDoc_STRVAR(stable_path_doc,
             "stable_path(tags, ids, classes, parents, elem) -> str | None\n\n"
             "segment.stable_path of the element `elem` (the columns of a Segmentation); None when an index\n"
             "or a column is not one the C code reads (the Python code then decides).");

/* Whether text[lo, hi) holds three decimal digits in a row (segment._DIGITS: \d{3,}). */
static int three_digits(PyObject *text, Py_ssize_t lo, Py_ssize_t hi) {
    int kind = PyUnicode_KIND(text), run = 0;
    const void *data = PyUnicode_DATA(text);
    for (Py_ssize_t i = lo; i < hi; i++) {
        run = Py_UNICODE_ISDECIMAL(PyUnicode_READ(kind, data, i)) ? run + 1 : 0;
        if (run >= 3)
            return 1;
    }
    return 0;
}

/* tag + sep + text[lo, hi) */
static PyObject *joined_part(PyObject *tag, const char *sep, PyObject *text, Py_ssize_t lo, Py_ssize_t hi) {
    PyObject *piece = PyUnicode_Substring(text, lo, hi);
    if (piece == NULL)
        return NULL;
    PyObject *part = PyUnicode_FromFormat("%U%s%U", tag, sep, piece);
    Py_DECREF(piece);
    return part;
}

static PyObject *native_stable_path(PyObject *self, PyObject *args) {
    PyObject *tags, *ids, *classes, *parents;
    Py_ssize_t elem;
    if (!PyArg_ParseTuple(args, "O!O!O!O!n", &PyList_Type, &tags, &PyList_Type, &ids, &PyList_Type, &classes,
                          &PyList_Type, &parents, &elem))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(tags);
    if (PyList_GET_SIZE(ids) != n || PyList_GET_SIZE(classes) != n || PyList_GET_SIZE(parents) != n ||
        elem >= n)
        Py_RETURN_NONE;
    PyObject *parts = PyList_New(0), *result = NULL;
    if (parts == NULL)
        return NULL;
    while (elem >= 0) {
        PyObject *tag = PyList_GET_ITEM(tags, elem), *id = PyList_GET_ITEM(ids, elem);
        PyObject *cls = PyList_GET_ITEM(classes, elem), *part = NULL;
        if (!PyUnicode_CheckExact(tag) || !PyUnicode_CheckExact(id) || !PyUnicode_CheckExact(cls))
            goto invalid;
        Py_ssize_t nid = PyUnicode_GET_LENGTH(id);
        if (nid && !three_digits(id, 0, nid)) { /* "#" and the id, stripped */
            int kind = PyUnicode_KIND(id);
            const void *data = PyUnicode_DATA(id);
            Py_ssize_t lo = 0, hi = nid;
            while (lo < hi && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, lo)))
                lo++;
            while (hi > lo && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, hi - 1)))
                hi--;
            part = joined_part(tag, "#", id, lo, hi);
        } else { /* the first class, where it holds no run of three digits */
            int kind = PyUnicode_KIND(cls);
            const void *data = PyUnicode_DATA(cls);
            Py_ssize_t nc = PyUnicode_GET_LENGTH(cls), lo = 0, hi;
            while (lo < nc && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, lo)))
                lo++;
            for (hi = lo; hi < nc && !Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, hi)); hi++)
                ;
            part = hi > lo && !three_digits(cls, lo, hi) ? joined_part(tag, ".", cls, lo, hi) : Py_NewRef(tag);
        }
        if (part == NULL || PyList_Append(parts, part) < 0) {
            Py_XDECREF(part);
            goto done;
        }
        Py_DECREF(part);
        PyObject *x = PyList_GET_ITEM(parents, elem);
        Py_ssize_t parent = PyLong_CheckExact(x) ? PyLong_AsSsize_t(x) : elem;
        if (parent == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            goto invalid;
        }
        if (parent >= elem) /* the C code only walks towards the root (a segmentation's parents come first) */
            goto invalid;
        elem = parent;
    }
    Py_ssize_t np = PyList_GET_SIZE(parts);
    if (np == 0 || PyUnicode_CompareWithASCIIString(PyList_GET_ITEM(parts, np - 1), "html") != 0) {
        PyObject *html = PyUnicode_FromString("html");
        if (html == NULL || PyList_Append(parts, html) < 0) {
            Py_XDECREF(html);
            goto done;
        }
        Py_DECREF(html);
    }
    if (PyList_Reverse(parts) < 0)
        goto done;
    PyObject *sep = PyUnicode_FromString(">");
    if (sep != NULL) {
        result = PyUnicode_Join(sep, parts);
        Py_DECREF(sep);
    }
    goto done;
invalid:
    result = Py_NewRef(Py_None);
done:
    Py_DECREF(parts);
    return result;
}

PyDoc_STRVAR(kept_positions_doc,
             "kept_positions(positions, position_kept, position_seen, bar, share) -> frozenset[int] | None\n\n"
             "sitememory._kept_positions_python: the positions[i] with position_kept[i] >= bar and\n"
             "position_kept[i] >= share * position_seen[i]; None when the arrays differ in length.");

static PyObject *native_kept_positions(PyObject *self, PyObject *args) {
    PyObject *positions_obj, *kept_obj, *seen_obj;
    double bar, share;
    if (!PyArg_ParseTuple(args, "OOOdd", &positions_obj, &kept_obj, &seen_obj, &bar, &share))
        return NULL;
    Py_buffer pv, kv, sv;
    if (table_buffers(positions_obj, kept_obj, &pv, &kv, 0) < 0)
        return NULL;
    if (array_buffer(seen_obj, &sv, "f", 4, 0) < 0) {
        PyBuffer_Release(&pv);
        PyBuffer_Release(&kv);
        return NULL;
    }
    const uint64_t *positions = pv.buf;
    const float *kept = kv.buf, *seen = sv.buf;
    Py_ssize_t n = pv.len / 8;
    PyObject *out = NULL;
    if (kv.len / 4 != n || sv.len / 4 != n) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    out = PyFrozenSet_New(NULL);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        double k = kept[i];
        if (!(k >= bar && k >= share * (double)seen[i]))
            continue;
        PyObject *x = PyLong_FromUnsignedLongLong(positions[i]);
        if (x == NULL || PySet_Add(out, x) < 0)
            Py_CLEAR(out);
        Py_XDECREF(x);
    }
done:
    PyBuffer_Release(&pv);
    PyBuffer_Release(&kv);
    PyBuffer_Release(&sv);
    return out;
}

/* ------------------------------------------------------------------------------------------------ */
/* The guard's scans (guard._scan_python, guard._nesting_counts_python), on a str's storage            */

#if defined(__GNUC__)
#define SPECIALISED static inline __attribute__((always_inline))
#else
#define SPECIALISED static inline
#endif

/* result = scan(kind, args...) with the storage kind of `text` as a constant, so each SPECIALISED scan is
   inlined once per kind with plain loads. */
#define BY_KIND(result, text, scan, ...)                                                                 \
    switch (PyUnicode_KIND(text)) {                                                                      \
    case PyUnicode_1BYTE_KIND:                                                                           \
        result = scan(PyUnicode_1BYTE_KIND, __VA_ARGS__);                                                \
        break;                                                                                           \
    case PyUnicode_2BYTE_KIND:                                                                           \
        result = scan(PyUnicode_2BYTE_KIND, __VA_ARGS__);                                                \
        break;                                                                                           \
    default:                                                                                             \
        result = scan(PyUnicode_4BYTE_KIND, __VA_ARGS__);                                                \
    }

/* ------------------------------------------------------------------------------------------------ */
/* A page's UTF-8 for lexbor (pipeline._input_size): str.encode("utf-8"), with a 2-byte str's runs of
   ASCII tested and narrowed many code units a step (SSE2), and a Latin-1 str's sixteen bytes a step.
   CPython encodes a 2- or 4-byte str one code unit a step (~0.55 ns a character on the benchmark's
   pages, most of which hold one curly quote or dash and are therefore 2-byte strs; the rest are ASCII,
   copied whole, or Latin-1: a no-break space or an accented letter). A 2-byte str's size is tested 32
   code units a step and written 16 a step (was 8 and 8), a Latin-1 str's 16 (was one byte a step): the
   encoding was 4.5 instructions a character of the non-ASCII pages, ~3% of a --no-templates page's
   instructions under callgrind (every other page of the bench's two sets). */

#ifdef VECTOR_HASHES
/* The first i' >= i (i' <= n - 64 or the first block that is not) where the 64 code units u[i', i' + 64)
   are not all ASCII, stepping 64 at a time: the 2-byte str's ASCII runs that utf8_size skips. */
__attribute__((target("avx2"))) static Py_ssize_t ucs2_ascii_skip(const Py_UCS2 *u, Py_ssize_t i, Py_ssize_t n) {
    const __m256i high = _mm256_set1_epi16((short)0xFF80);
    for (; i + 64 <= n; i += 64) {
        const __m256i *p = (const __m256i *)(u + i);
        __m256i v = _mm256_or_si256(_mm256_or_si256(_mm256_loadu_si256(p), _mm256_loadu_si256(p + 1)),
                                    _mm256_or_si256(_mm256_loadu_si256(p + 2), _mm256_loadu_si256(p + 3)));
        if (!_mm256_testz_si256(v, high))
            break;
    }
    return i;
}

/* utf8_write's ASCII steps for a 2-byte str, 32 code units a step: the units from i narrowed to bytes at
   *out while a whole step is ASCII; the index where that stops. */
__attribute__((target("avx2"))) static Py_ssize_t ucs2_ascii_narrow(const Py_UCS2 *u, Py_ssize_t i, Py_ssize_t n,
                                                                   unsigned char **out) {
    const __m256i high = _mm256_set1_epi16((short)0xFF80);
    unsigned char *o = *out;
    for (; i + 32 <= n; i += 32, o += 32) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(u + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(u + i + 16));
        if (!_mm256_testz_si256(_mm256_or_si256(a, b), high))
            break;
        /* packus works within 128-bit lanes: a0 b0 a1 b1, put back in order a0 a1 b0 b1 */
        __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
        _mm256_storeu_si256((__m256i *)o, packed);
    }
    *out = o;
    return i;
}
#endif

/* Bytes of the UTF-8 of s[0:n], or -1 when it holds a surrogate (str.encode then raises). */
SPECIALISED Py_ssize_t utf8_size(int kind, const void *s, Py_ssize_t n) {
    Py_ssize_t size = n, i = 0;
    uint32_t bad = 0;
#ifdef __SSE2__
    if (kind == PyUnicode_2BYTE_KIND) { /* 32 ASCII code units a step: four loads OR-ed, one test */
        const Py_UCS2 *u = (const Py_UCS2 *)s;
        const __m128i high = _mm_set1_epi16((short)0xFF80);
        for (; i + 32 <= n; i += 32) {
#ifdef VECTOR_HASHES
            if (vector_avx2 && (i = ucs2_ascii_skip(u, i, n)) + 32 > n)
                break;
#endif
            const __m128i *p = (const __m128i *)(u + i);
            __m128i v = _mm_or_si128(_mm_or_si128(_mm_loadu_si128(p), _mm_loadu_si128(p + 1)),
                                     _mm_or_si128(_mm_loadu_si128(p + 2), _mm_loadu_si128(p + 3)));
            if (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(v, high), _mm_setzero_si128())) == 0xFFFF)
                continue;
            for (Py_ssize_t j = i; j < i + 32; j++) {
                Py_UCS4 c = u[j];
                size += (c >= 0x80) + (c >= 0x800);
                bad |= (c & 0xF800u) == 0xD800u;
            }
        }
    } else if (kind == PyUnicode_4BYTE_KIND) { /* 16 ASCII code points a step: four loads OR-ed, one test */
        const Py_UCS4 *u = (const Py_UCS4 *)s;
        const __m128i high = _mm_set1_epi32((int)0xFFFFFF80u);
        for (; i + 16 <= n; i += 16) {
            const __m128i *p = (const __m128i *)(u + i);
            __m128i v = _mm_or_si128(_mm_or_si128(_mm_loadu_si128(p), _mm_loadu_si128(p + 1)),
                                     _mm_or_si128(_mm_loadu_si128(p + 2), _mm_loadu_si128(p + 3)));
            if (_mm_movemask_epi8(_mm_cmpeq_epi32(_mm_and_si128(v, high), _mm_setzero_si128())) == 0xFFFF)
                continue;
            for (Py_ssize_t j = i; j < i + 16; j++) {
                Py_UCS4 c = u[j];
                size += (c >= 0x80) + (c >= 0x800) + (c >= 0x10000);
                bad |= (c & 0xFFFFF800u) == 0xD800u;
            }
        }
    } else if (kind == PyUnicode_1BYTE_KIND) { /* a Latin-1 character past ASCII (high bit set) is 2 bytes */
        const unsigned char *u = (const unsigned char *)s;
        for (; i + 16 <= n; i += 16) {
            unsigned high = (unsigned)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(u + i)));
            if (high) /* rare: without -mpopcnt the count is a libgcc call */
                size += __builtin_popcount(high);
        }
    }
#endif
    for (; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, s, i);
        size += (c >= 0x80) + (c >= 0x800) + (c >= 0x10000);
        bad |= (c & 0xFFFFF800u) == 0xD800u;
    }
    return bad ? -1 : size;
}

SPECIALISED void utf8_write(int kind, const void *s, Py_ssize_t n, unsigned char *out) {
    Py_ssize_t i = 0;
    while (i < n) {
#ifdef __SSE2__
        if (kind == PyUnicode_1BYTE_KIND) { /* sixteen ASCII bytes a step, copied */
            const unsigned char *u = (const unsigned char *)s;
            while (i + 16 <= n) {
                __m128i v = _mm_loadu_si128((const __m128i *)(u + i));
                if (_mm_movemask_epi8(v) != 0)
                    break;
                _mm_storeu_si128((__m128i *)out, v);
                out += 16;
                i += 16;
            }
            if (i >= n)
                break;
        }
        if (kind == PyUnicode_4BYTE_KIND) { /* sixteen ASCII code points a step, narrowed */
            const Py_UCS4 *u = (const Py_UCS4 *)s;
            const __m128i high = _mm_set1_epi32((int)0xFFFFFF80u);
            while (i + 16 <= n) {
                const __m128i *p = (const __m128i *)(u + i);
                __m128i a = _mm_loadu_si128(p), b = _mm_loadu_si128(p + 1), c = _mm_loadu_si128(p + 2),
                        d = _mm_loadu_si128(p + 3);
                __m128i v = _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d));
                if (_mm_movemask_epi8(_mm_cmpeq_epi32(_mm_and_si128(v, high), _mm_setzero_si128())) != 0xFFFF)
                    break;
                _mm_storeu_si128((__m128i *)out, _mm_packus_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d)));
                out += 16;
                i += 16;
            }
            if (i >= n)
                break;
        }
        if (kind == PyUnicode_2BYTE_KIND) { /* sixteen, then eight ASCII code units a step, narrowed */
            const Py_UCS2 *u = (const Py_UCS2 *)s;
            const __m128i high = _mm_set1_epi16((short)0xFF80);
#ifdef VECTOR_HASHES
            if (vector_avx2)
                i = ucs2_ascii_narrow(u, i, n, &out);
#endif
            while (i + 16 <= n) {
                __m128i a = _mm_loadu_si128((const __m128i *)(u + i));
                __m128i b = _mm_loadu_si128((const __m128i *)(u + i + 8));
                if (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(_mm_or_si128(a, b), high),
                                                      _mm_setzero_si128())) != 0xFFFF)
                    break;
                _mm_storeu_si128((__m128i *)out, _mm_packus_epi16(a, b));
                out += 16;
                i += 16;
            }
            while (i + 8 <= n) {
                __m128i v = _mm_loadu_si128((const __m128i *)(u + i));
                if (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(v, high), _mm_setzero_si128())) != 0xFFFF)
                    break;
                _mm_storel_epi64((__m128i *)out, _mm_packus_epi16(v, v));
                out += 8;
                i += 8;
            }
            if (i >= n)
                break;
        }
#endif
        Py_UCS4 c = PyUnicode_READ(kind, s, i++);
        if (c < 0x80) {
            *out++ = (unsigned char)c;
        } else if (c < 0x800) {
            *out++ = (unsigned char)(0xC0 | (c >> 6));
            *out++ = (unsigned char)(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            *out++ = (unsigned char)(0xE0 | (c >> 12));
            *out++ = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
            *out++ = (unsigned char)(0x80 | (c & 0x3F));
        } else {
            *out++ = (unsigned char)(0xF0 | (c >> 18));
            *out++ = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
            *out++ = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
            *out++ = (unsigned char)(0x80 | (c & 0x3F));
        }
    }
}

PyDoc_STRVAR(utf8_doc, "utf8(text) -> bytes | None\n\n"
                       "text.encode('utf-8'); None when text holds a surrogate (the caller's str.encode raises).");

static PyObject *native_utf8(PyObject *self, PyObject *text) {
    if (!PyUnicode_Check(text))
        return PyErr_Format(PyExc_TypeError, "utf8() takes a str, not %.80s", Py_TYPE(text)->tp_name);
    if (PyUnicode_IS_ASCII(text))
        return PyBytes_FromStringAndSize((const char *)PyUnicode_1BYTE_DATA(text), PyUnicode_GET_LENGTH(text));
    const void *s = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), size;
    BY_KIND(size, text, utf8_size, s, n);
    if (size < 0)
        Py_RETURN_NONE;
    PyObject *out = PyBytes_FromStringAndSize(NULL, size);
    if (out == NULL)
        return NULL;
    unsigned char *b = (unsigned char *)PyBytes_AS_STRING(out);
    switch (PyUnicode_KIND(text)) {
    case PyUnicode_1BYTE_KIND:
        utf8_write(PyUnicode_1BYTE_KIND, s, n, b);
        break;
    case PyUnicode_2BYTE_KIND:
        utf8_write(PyUnicode_2BYTE_KIND, s, n, b);
        break;
    default:
        utf8_write(PyUnicode_4BYTE_KIND, s, n, b);
    }
    return out;
}

/* scan_blocks sums 128 characters at a time in the storage's own width (a byte for Latin-1 text): blocks
   are a multiple of it, and at most QUIET_BLOCK_MAX characters. */
#define QUIET_STRIDE 128
#define QUIET_BLOCK_MAX 4096

#define SCAN_BLOCKS(T)                                                                                   \
    do {                                                                                                 \
        const T *u = (const T *)s;                                                                       \
        for (; i + block <= n; i += block, k++) {                                                        \
            T gt = 0;                                                                                    \
            for (Py_ssize_t at = i; at < i + block; at += QUIET_STRIDE) {                                \
                T lt = 0;                                                                                \
                for (Py_ssize_t j = at; j < at + QUIET_STRIDE; j++) {                                    \
                    lt += u[j] == '<';                                                                   \
                    gt |= u[j] == '>';                                                                   \
                }                                                                                        \
                tags += lt;                                                                              \
            }                                                                                            \
            quiet[k] = gt == 0;                                                                          \
        }                                                                                                \
        for (; i < n; i++)                                                                               \
            tags += u[i] == '<';                                                                         \
    } while (0)

/* scan_blocks' body, for its plain and its AVX2 compilation. */
#define SCAN_BLOCKS_BY_KIND()                                                                            \
    do {                                                                                                 \
        if (kind == PyUnicode_1BYTE_KIND)                                                                \
            SCAN_BLOCKS(Py_UCS1);                                                                        \
        else if (kind == PyUnicode_2BYTE_KIND)                                                           \
            SCAN_BLOCKS(Py_UCS2);                                                                        \
        else                                                                                             \
            SCAN_BLOCKS(Py_UCS4);                                                                        \
    } while (0)

/* The `<` of s[0:n), and for each whole block of `block` characters (s[k*block:(k+1)*block)) whether it
   holds no `>` (quiet[k]). Branch-free loops over the storage's own type, comparing and summing in its
   width: gcc -O3 vectorises them (through PyUnicode_READ, whose Py_UCS4 widens every character, it
   vectorised badly; a str.count("<") of UCS-2 text is a scalar loop). */
SPECIALISED Py_ssize_t scan_blocks(int kind, const void *s, Py_ssize_t n, Py_ssize_t block,
                                   unsigned char *quiet) {
    Py_ssize_t tags = 0, i = 0, k = 0;
    SCAN_BLOCKS_BY_KIND();
    return tags;
}

#ifdef VECTOR_HASHES
/* scan_blocks compiled for AVX2 (gcc vectorises the same loops 32 bytes a step), where the CPU has it. */
__attribute__((target("avx2"))) static Py_ssize_t scan_blocks_avx2(int kind, const void *s, Py_ssize_t n,
                                                                  Py_ssize_t block, unsigned char *quiet) {
    Py_ssize_t tags = 0, i = 0, k = 0;
    SCAN_BLOCKS_BY_KIND();
    return tags;
}
#endif

static inline int ascii_letter(Py_UCS4 c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* guard._TAG_OPEN at `at`: `<` then a letter, or `</` then a letter. */
static int tag_opens(PyObject *markup, Py_ssize_t at, Py_ssize_t n) {
    Py_UCS4 c = at + 1 < n ? PyUnicode_READ_CHAR(markup, at + 1) : 0;
    if (c == '/')
        c = at + 2 < n ? PyUnicode_READ_CHAR(markup, at + 2) : 0;
    return ascii_letter(c);
}

/* The loop of guard._probe_runs_python, call for call (its finds are PyUnicode_FindChar, str.find's own
   search), except where the blocks say what the finds would: a run the probe at `pos` lands in holds at
   least long_tag - 1 characters without `>` within long_tag of `pos`, so a whole quiet block; and when
   the next block is not quiet, the next `>` is within `step`, so the probe moves on by `step`. A probe
   with no quiet block within reach of it therefore finds nothing and moves on by `step`, without a find
   (most probes: the blocks are half a probe step, and real pages have a `>` in most of them). The last `<`
   up to the probe and the last `>` before it are kept from probe to probe (the probes only move on), each
   found in what lies between two probes: a backward find from every probe in a long run without `<` (a
   JSON blob in a script) read the run again and again (36 M instructions over the bench's pages). */
static int probe_scan(PyObject *markup, Py_ssize_t long_tag, Py_ssize_t step, const unsigned char *quiet,
                      Py_ssize_t block, Py_ssize_t blocks, PyObject *runs) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(markup), pos = 0, reach = long_tag > step ? long_tag : step;
    Py_ssize_t last_lt = -1, lt_upto = 0; /* the last `<` in markup[0:lt_upto], -1: none */
    Py_ssize_t last_gt = -1, gt_upto = 0; /* the last `>` in markup[0:gt_upto] */
    while (pos < n) {
        if (blocks > 0) {
            Py_ssize_t lo = (pos > long_tag ? pos - long_tag : 0) / block, hi = (pos + reach) / block;
            if (hi < blocks) {
                while (lo <= hi && !quiet[lo])
                    lo++;
                if (lo > hi) {
                    pos += step;
                    continue;
                }
            }
        }
        Py_ssize_t close = PyUnicode_FindChar(markup, '>', pos, n, 1);
        if (close == -2)
            return -1;
        if (close < 0)
            close = n;
        /* start: str.rfind("<", 0, pos + 1); and whether markup[start:pos] holds no `>` */
        Py_ssize_t found = PyUnicode_FindChar(markup, '<', lt_upto, pos + 1, -1);
        if (found == -2)
            return -1;
        last_lt = found >= 0 ? found : last_lt;
        lt_upto = pos + 1;
        found = pos > gt_upto ? PyUnicode_FindChar(markup, '>', gt_upto, pos, -1) : -1;
        if (found == -2)
            return -1;
        last_gt = found >= 0 ? found : last_gt;
        gt_upto = pos > gt_upto ? pos : gt_upto;
        Py_ssize_t start = last_lt;
        if (start >= 0 && close - start >= long_tag && last_gt < start) {
            int opens = tag_opens(markup, start, n);
            if (!opens) { /* an earlier `<` since the last `>` may start the tag */
                Py_ssize_t gt = PyUnicode_FindChar(markup, '>', 0, start, -1);
                Py_ssize_t lt = gt == -2 ? -2 : PyUnicode_FindChar(markup, '<', gt + 1, start, -1);
                if (lt == -2)
                    return -1;
                opens = lt >= 0;
            }
            if (!opens)
                goto next;
            PyObject *run = Py_BuildValue("(nn)", start, close);
            if (run == NULL || PyList_Append(runs, run) < 0) {
                Py_XDECREF(run);
                return -1;
            }
            Py_DECREF(run);
        }
    next:
        pos = close > pos + step ? close : pos + step;
    }
    return 0;
}

PyDoc_STRVAR(scan_doc, "scan(markup, long_tag, step) -> (int, list[tuple[int, int]])\n\n"
                       "guard._scan_python: markup.count('<') and guard._probe_runs_python(markup), in C.");

static PyObject *native_scan(PyObject *self, PyObject *args) {
    PyObject *markup;
    Py_ssize_t long_tag, step;
    if (!PyArg_ParseTuple(args, "Unn", &markup, &long_tag, &step))
        return NULL;
    if (step <= 0)
        return PyErr_Format(PyExc_ValueError, "step %zd", step);
    Py_ssize_t n = PyUnicode_GET_LENGTH(markup), tags;
    /* blocks of at most half the shorter of a long tag and a probe step (what probe_scan's reasoning
       needs), whole strides; none when that is under a stride, then every probe finds */
    Py_ssize_t block = (long_tag < step ? long_tag : step) / 2 / QUIET_STRIDE * QUIET_STRIDE;
    if (block > QUIET_BLOCK_MAX)
        block = QUIET_BLOCK_MAX;
    Py_ssize_t blocks = block > 0 ? n / block : 0;
    unsigned char *quiet = PyMem_Malloc(blocks > 0 ? (size_t)blocks : 1);
    if (quiet == NULL)
        return PyErr_NoMemory();
    const void *s = PyUnicode_DATA(markup);
#ifdef VECTOR_HASHES
    if (vector_avx2)
        tags = scan_blocks_avx2(PyUnicode_KIND(markup), s, n, blocks > 0 ? block : n + 1, quiet);
    else
#endif
        BY_KIND(tags, markup, scan_blocks, s, n, blocks > 0 ? block : n + 1, quiet);
    PyObject *runs = PyList_New(0), *result = NULL;
    if (runs != NULL && probe_scan(markup, long_tag, step, quiet, block, blocks, runs) == 0)
        result = Py_BuildValue("(nO)", tags, runs);
    Py_XDECREF(runs);
    PyMem_Free(quiet);
    return result;
}

/* Bit j set: s[i + j] is `<`, for the 16 characters from i. SSE2 (every x86-64) compares 16 at once;
   elsewhere a loop does. */
#if defined(__GNUC__) && defined(__SSE2__)
#include <emmintrin.h>
SPECIALISED unsigned lt_bits(int kind, const void *s, Py_ssize_t i) {
    if (kind == PyUnicode_1BYTE_KIND) {
        __m128i v = _mm_loadu_si128((const __m128i *)((const Py_UCS1 *)s + i));
        return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('<')));
    }
    if (kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *p = (const Py_UCS2 *)s + i;
        __m128i lt = _mm_set1_epi16('<');
        __m128i a = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)p), lt);
        __m128i b = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(p + 8)), lt);
        return (unsigned)_mm_movemask_epi8(_mm_packs_epi16(a, b));
    }
    const Py_UCS4 *p = (const Py_UCS4 *)s + i;
    __m128i lt = _mm_set1_epi32('<');
    __m128i a = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)p), lt);
    __m128i b = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(p + 4)), lt);
    __m128i c = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(p + 8)), lt);
    __m128i d = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(p + 12)), lt);
    return (unsigned)_mm_movemask_epi8(_mm_packs_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d)));
}
#define LOWEST_BIT(m) __builtin_ctz(m)
#else
SPECIALISED unsigned lt_bits(int kind, const void *s, Py_ssize_t i) {
    unsigned m = 0;
    for (int j = 0; j < 16; j++)
        m |= (unsigned)(PyUnicode_READ(kind, s, i + j) == '<') << j;
    return m;
}
static int lowest_bit(unsigned m) {
    int j = 0;
    while (!(m & 1u)) {
        m >>= 1;
        j++;
    }
    return j;
}
#define LOWEST_BIT(m) lowest_bit(m)
#endif

/* Tag names as tier 3 reads them: up to NAME_KEY_CHARS ASCII characters, lower-cased, packed into a
   key; 0 for a name that is longer or holds other characters (in no table). */
#define NAME_KEY_CHARS 8
#define NAME_VOID 1
#define NAME_FORMATTING 2
#define NAME_KINDS_MAX 64

typedef struct {
    uint64_t key[NAME_KINDS_MAX];
    unsigned char kind[NAME_KINDS_MAX];
    int count;
} NameKinds;

/* The HTML tokenizer's ends of a tag name, and `<` (tier 3 visits every `<`, so it ends one too). */
static inline int name_end(Py_UCS4 c) {
    return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' ' || c == '/' || c == '>' || c == '<';
}

SPECIALISED uint64_t name_key(int kind, const void *s, Py_ssize_t p, Py_ssize_t n) {
    uint64_t key = 0;
    for (int j = 0; p + j < n; j++) {
        Py_UCS4 c = PyUnicode_READ(kind, s, p + j);
        if (name_end(c))
            return key;
        if (j == NAME_KEY_CHARS || c == 0 || c >= 128)
            return 0;
        if (c >= 'A' && c <= 'Z')
            c += 'a' - 'A';
        key |= (uint64_t)c << (8 * j);
    }
    return key;
}

static int name_kinds_add(NameKinds *kinds, PyObject *names, unsigned char kind) {
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(names); k++) {
        PyObject *name = PyTuple_GET_ITEM(names, k);
        Py_ssize_t len = PyUnicode_Check(name) ? PyUnicode_GET_LENGTH(name) : -1;
        if (len < 1 || len > NAME_KEY_CHARS || kinds->count == NAME_KINDS_MAX) {
            PyErr_Format(PyExc_ValueError, "tag name %R: 1 to %d lower-case ASCII letters, at most %d names",
                         name, NAME_KEY_CHARS, NAME_KINDS_MAX);
            return -1;
        }
        uint64_t key = 0;
        for (Py_ssize_t j = 0; j < len; j++) {
            Py_UCS4 c = PyUnicode_READ_CHAR(name, j);
            if (c < 'a' || c > 'z') {
                PyErr_Format(PyExc_ValueError, "tag name %R: lower-case ASCII letters only", name);
                return -1;
            }
            key |= (uint64_t)c << (8 * j);
        }
        kinds->key[kinds->count] = key;
        kinds->kind[kinds->count++] = kind;
    }
    return 0;
}

static inline int name_kind(const NameKinds *kinds, uint64_t key) {
    for (int k = 0; k < kinds->count; k++)
        if (kinds->key[k] == key)
            return kinds->kind[k];
    return 0;
}

typedef struct {
    long long depth, formatting, steps, elements, options;
} Nesting;

/* One `<` of guard._nesting_counts_python's loop, at i. */
SPECIALISED void nesting_step(int kind, const void *s, Py_ssize_t i, Py_ssize_t n, const NameKinds *kinds,
                              PyObject *spellings, Nesting *t) {
    Py_ssize_t p = i + 1;
    int end = p < n && PyUnicode_READ(kind, s, p) == '/';
    p += end;
    Py_UCS4 c = p < n ? PyUnicode_READ(kind, s, p) : 0;
    int tag = ascii_letter(c), named = 0;
    if (tag) {
        uint64_t key = name_key(kind, s, p, n);
        named = key ? name_kind(kinds, key) : 0;
        if (!end) {
            t->elements++;
            t->depth += named != NAME_VOID;
            t->formatting += named == NAME_FORMATTING;
        }
    }
    t->steps += t->depth + t->formatting;
    if (tag)
        t->elements += t->formatting;
    if (tag && end) {
        t->depth -= t->depth > 0;
        t->formatting -= named == NAME_FORMATTING && t->formatting > 0;
    }
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(spellings); k++) {
        PyObject *spelling = PyTuple_GET_ITEM(spellings, k);
        Py_ssize_t len = PyUnicode_GET_LENGTH(spelling), j = 1;
        if (i + len > n)
            continue;
        while (j < len && PyUnicode_READ(kind, s, i + j) == PyUnicode_READ_CHAR(spelling, j))
            j++;
        t->options += j == len;
    }
}

SPECIALISED Nesting nesting_scan(int kind, const void *s, Py_ssize_t n, const NameKinds *kinds,
                                 PyObject *spellings) {
    Nesting t = {0, 0, 0, 0, 0};
    Py_ssize_t i = 0;
    for (; i + 16 <= n; i += 16)
        for (unsigned m = lt_bits(kind, s, i); m; m &= m - 1)
            nesting_step(kind, s, i + LOWEST_BIT(m), n, kinds, spellings, &t);
    for (; i < n; i++)
        if (PyUnicode_READ(kind, s, i) == '<')
            nesting_step(kind, s, i, n, kinds, spellings, &t);
    return t;
}

/* ------------------------------------------------------------------------------------------------ */
/* The guard's attribute count of a long tag (guard._count_attributes_python: guard._ATTRIBUTE.findall) */

/* A character that ends an attribute name or cannot start one: whitespace (as the regex's \s), "/", ">",
   "=" (and, to start one, the quotes, which match alone). */
static int attr_stop(Py_UCS4 c) { return c == '/' || c == '>' || c == '=' || Py_UNICODE_ISSPACE(c); }

SPECIALISED Py_ssize_t attribute_scan(int kind, const void *s, Py_ssize_t p, Py_ssize_t end) {
    Py_ssize_t count = 0;
    while (p < end) {
        Py_UCS4 c = PyUnicode_READ(kind, s, p);
        if (c == '"' || c == '\'') { /* a stray quote matches alone */
            count++;
            p++;
            continue;
        }
        if (attr_stop(c)) {
            p++;
            continue;
        }
        /* a name: then, possessively, spaces, "=", spaces and a value, or nothing */
        count++;
        p++;
        while (p < end && !attr_stop(PyUnicode_READ(kind, s, p)))
            p++;
        Py_ssize_t q = p;
        while (q < end && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, s, q)))
            q++;
        if (q >= end || PyUnicode_READ(kind, s, q) != '=')
            continue;
        q++;
        while (q < end && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, s, q)))
            q++;
        if (q < end) {
            Py_UCS4 quote = PyUnicode_READ(kind, s, q);
            if (quote == '"' || quote == '\'') { /* a quoted value, when it closes */
                Py_ssize_t r = q + 1;
                while (r < end && PyUnicode_READ(kind, s, r) != quote)
                    r++;
                if (r < end) {
                    p = r + 1;
                    continue;
                }
            }
        }
        while (q < end) { /* an unquoted value (maybe empty) */
            Py_UCS4 v = PyUnicode_READ(kind, s, q);
            if (v == '>' || Py_UNICODE_ISSPACE(v))
                break;
            q++;
        }
        p = q;
    }
    return count;
}

PyDoc_STRVAR(count_attributes_doc, "count_attributes(markup, start, close) -> int\n\n"
                                   "guard._count_attributes_python: attributes in markup[start:close].");

static PyObject *native_count_attributes(PyObject *self, PyObject *args) {
    PyObject *markup;
    Py_ssize_t start, close;
    if (!PyArg_ParseTuple(args, "Unn", &markup, &start, &close))
        return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(markup);
    if (start < 0)
        start = 0;
    if (close > n)
        close = n;
    const void *s = PyUnicode_DATA(markup);
    Py_ssize_t count;
    BY_KIND(count, markup, attribute_scan, s, start, close);
    return PyLong_FromSsize_t(count);
}

/* meta/text.py's _DATE_START in C (date_starts_python: where TEXT_DATE can start in a window). Its letters
   are re's [^\W\d_] (alphanumeric, no decimal digit), its digits ASCII ones; lookbehinds read before
   `start`, lookaheads stop at `end` (re's pos and endpos). */
static inline int ds_digit(Py_UCS4 c) { return c >= '0' && c <= '9'; }
static inline int ds_letter(Py_UCS4 c) { return Py_UNICODE_ISALNUM(c) && !Py_UNICODE_ISDECIMAL(c); }

/* The end of _DATE_START's match at p (p < end), or -1: its three branches in order. */
SPECIALISED Py_ssize_t date_start_at(int kind, const void *s, Py_ssize_t p, Py_ssize_t end) {
    Py_UCS4 c = PyUnicode_READ(kind, s, p);
    if (ds_digit(c)) {
        /* (?<![0-9])(?:[0-9]{1,2}|[12][0-9]{3})(?![0-9]): a run of 1, 2 or (from 1 or 2) 4 digits */
        if (p == 0 || !ds_digit(PyUnicode_READ(kind, s, p - 1))) {
            Py_ssize_t r = p + 1;
            while (r < end && r - p < 5 && ds_digit(PyUnicode_READ(kind, s, r)))
                r++;
            if (r - p <= 2 || (r - p == 4 && (c == '1' || c == '2')))
                return r;
        }
        /* [12](?=[0-9]{3} ?年) */
        if ((c == '1' || c == '2') && p + 4 < end && ds_digit(PyUnicode_READ(kind, s, p + 1)) &&
            ds_digit(PyUnicode_READ(kind, s, p + 2)) && ds_digit(PyUnicode_READ(kind, s, p + 3))) {
            Py_UCS4 q = PyUnicode_READ(kind, s, p + 4);
            if (q == 0x5E74 || (q == ' ' && p + 5 < end && PyUnicode_READ(kind, s, p + 5) == 0x5E74))
                return p + 1;
        }
        return -1;
    }
    /* (?<![^\W\d_])[^\W\d_]{3,12}\.? (?=[0-9]): a word of 3 to 12 letters (a longer one fails each
       length), ". " or " ", a digit */
    if (!ds_letter(c) || (p > 0 && ds_letter(PyUnicode_READ(kind, s, p - 1))))
        return -1;
    Py_ssize_t q = p + 1;
    while (q < end && q - p <= 12 && ds_letter(PyUnicode_READ(kind, s, q)))
        q++;
    if (q - p < 3 || q - p > 12 || q >= end)
        return -1;
    if (PyUnicode_READ(kind, s, q) == '.')
        return q + 2 < end && PyUnicode_READ(kind, s, q + 1) == ' ' && ds_digit(PyUnicode_READ(kind, s, q + 2))
                   ? q + 2
                   : -1;
    return PyUnicode_READ(kind, s, q) == ' ' && q + 1 < end && ds_digit(PyUnicode_READ(kind, s, q + 1)) ? q + 1
                                                                                                       : -1;
}

/* The starts of _DATE_START.finditer(text, start, end) up to `last` (each match resumes the search at its
   end) into `out`; -1 with an exception. */
SPECIALISED int date_starts_scan(int kind, const void *s, Py_ssize_t p, Py_ssize_t end, Py_ssize_t last,
                                 PyObject *out) {
    for (; p < end && p <= last; p++) {
        Py_ssize_t to = date_start_at(kind, s, p, end);
        if (to < 0)
            continue;
        PyObject *at = PyLong_FromSsize_t(p);
        if (at == NULL || PyList_Append(out, at) < 0) {
            Py_XDECREF(at);
            return -1;
        }
        Py_DECREF(at);
        p = to - 1;
    }
    return 0;
}

PyDoc_STRVAR(date_starts_doc, "date_starts(text, start, end, last) -> list\n\n"
                              "meta.text.date_starts_python: where _DATE_START matches in text[start:end],\n"
                              "up to `last`.");

static PyObject *native_date_starts(PyObject *self, PyObject *args) {
    PyObject *text;
    Py_ssize_t start, end, last;
    if (!PyArg_ParseTuple(args, "Unnn", &text, &start, &end, &last))
        return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (start < 0 || end > n) /* re's clamping of negative or long bounds is left to Python */
        Py_RETURN_NONE;
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    int status;
    BY_KIND(status, text, date_starts_scan, PyUnicode_DATA(text), start, end, last, out);
    if (status < 0)
        Py_CLEAR(out);
    return out;
}

/* classify.py's repeated_quotes_python in C: the forum quotes (of `quotes`, indexes into `texts`) of whose
   distinct word 4-grams at least `share` are held by two or more entries of `kept`. A text's words are the
   runs of \w characters (alphanumeric or "_") of its lower-cased text, as classify._words reads them; each
   text's words are copied, one space after each, into a buffer of code points, so a 4-gram is the span
   from its first word's start to its fourth word's end, compared by its code points and found by its
   FNV-1a hash in one open-addressed table of the quotes' 4-grams (what the Python code's tuple sets and
   their intersections hold). */
typedef struct {
    Py_UCS4 *chars; /* the texts' words, each followed by a space */
    Py_ssize_t used, size;
    Py_ssize_t *starts; /* where each word of the text read last starts, and one past its end */
    Py_ssize_t words, starts_size;
} QuoteWords;

typedef struct {
    uint64_t hash;
    Py_ssize_t at, len; /* its code points in QuoteWords.chars (of a quote's words, kept to the end) */
    Py_ssize_t last;    /* the last kept entry (or quote, during the quotes' pass) that held it, -1 none */
    Py_ssize_t held;    /* how many kept entries hold it */
} QuoteGram;

static int quote_words_grow(QuoteWords *w, Py_ssize_t more) {
    if (w->used + more > w->size) {
        Py_ssize_t size = (w->used + more) * 2 + 64;
        Py_UCS4 *chars = PyMem_Realloc(w->chars, (size_t)size * sizeof(Py_UCS4));
        if (chars == NULL)
            return -1;
        w->chars = chars;
        w->size = size;
    }
    return 0;
}

/* The words of `text` appended to w->chars from `from` (w->used is set to its end); their starts, and
   their ends (each start's next entry less one), in w->starts. -1 with an exception. */
static int quote_words_read(QuoteWords *w, PyObject *text, Py_ssize_t from) {
    PyObject *lower = NULL;
    if (!PyUnicode_IS_ASCII(text)) {
        lower = PyObject_CallMethod(text, "lower", NULL);
        if (lower == NULL)
            return -1;
        text = lower;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    w->used = from;
    w->words = 0;
    if (quote_words_grow(w, n + 1) < 0)
        goto no_memory;
    if (n / 2 + 2 > w->starts_size) { /* a word and the character after it: at most n / 2 + 1 words */
        Py_ssize_t size = n / 2 + 2;
        Py_ssize_t *starts = PyMem_Realloc(w->starts, (size_t)size * sizeof(Py_ssize_t));
        if (starts == NULL)
            goto no_memory;
        w->starts = starts;
        w->starts_size = size;
    }
    int in_word = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, k);
        if (c < 128) {
            if (c >= 'A' && c <= 'Z')
                c += 'a' - 'A'; /* an ASCII text's lower(), read here */
        }
        int word = c == '_' || Py_UNICODE_ISALNUM(c);
        if (word) {
            if (!in_word)
                w->starts[w->words++] = w->used;
            w->chars[w->used++] = c;
        } else if (in_word) {
            w->chars[w->used++] = ' ';
        }
        in_word = word;
    }
    if (in_word)
        w->chars[w->used++] = ' ';
    w->starts[w->words] = w->used; /* the words' end: the k-th word ends at starts[k + 1] - 1 */
    Py_XDECREF(lower);
    return 0;
no_memory:
    Py_XDECREF(lower);
    PyErr_NoMemory();
    return -1;
}

static uint64_t quote_gram_hash(const Py_UCS4 *s, Py_ssize_t len) {
    uint64_t h = 1469598103934665603ULL;
    for (Py_ssize_t k = 0; k < len; k++) {
        h ^= s[k];
        h *= 1099511628211ULL;
    }
    return h;
}

/* The table slot of the 4-gram s[0:len] (hash h): its entry, or the empty slot where it goes. */
static Py_ssize_t quote_gram_slot(const QuoteGram *table, Py_ssize_t mask, const Py_UCS4 *chars,
                                  const Py_UCS4 *s, Py_ssize_t len, uint64_t h) {
    Py_ssize_t k = (Py_ssize_t)(h & (uint64_t)mask);
    while (table[k].len != 0) {
        if (table[k].hash == h && table[k].len == len &&
            memcmp(chars + table[k].at, s, (size_t)len * sizeof(Py_UCS4)) == 0)
            return k;
        k = (k + 1) & mask;
    }
    return k;
}

PyDoc_STRVAR(repeated_quotes_doc,
             "repeated_quotes(texts, kept, quotes, share) -> set\n\n"
             "classify.repeated_quotes_python: the quotes of whose word 4-grams at least `share` are held by\n"
             "two or more entries of `kept`; None for arguments the Python code reads otherwise.");

static PyObject *native_repeated_quotes(PyObject *self, PyObject *args) {
    PyObject *texts, *kept, *quotes;
    double share;
    if (!PyArg_ParseTuple(args, "OOOd", &texts, &kept, &quotes, &share))
        return NULL;
    if (!PyList_CheckExact(texts) || !PyList_CheckExact(kept) || !PyList_CheckExact(quotes))
        Py_RETURN_NONE;
    Py_ssize_t n_texts = PyList_GET_SIZE(texts), n_kept = PyList_GET_SIZE(kept);
    Py_ssize_t n_quotes = PyList_GET_SIZE(quotes);
    /* every index an int within texts, every text a str: else Python decides (and raises where it does) */
    for (Py_ssize_t k = 0; k < n_kept + n_quotes; k++) {
        PyObject *item = k < n_kept ? PyList_GET_ITEM(kept, k) : PyList_GET_ITEM(quotes, k - n_kept);
        if (!PyLong_CheckExact(item))
            Py_RETURN_NONE;
        Py_ssize_t i = PyLong_AsSsize_t(item);
        if (i == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
        if (i < 0 || i >= n_texts || !PyUnicode_CheckExact(PyList_GET_ITEM(texts, i)))
            Py_RETURN_NONE;
    }
    QuoteWords w = {0};
    QuoteGram *table = NULL;
    Py_ssize_t *quote_at = NULL, *quote_grams = NULL, *quote_first = NULL, *word_first = NULL;
    Py_ssize_t *all_starts = NULL;
    PyObject *out = NULL;
    Py_ssize_t mask = 0, n_grams = 0;
    /* the distinct quotes (their text indexes), each quote's distinct grams (table slots) from quote_first */
    quote_at = PyMem_Malloc(((size_t)n_quotes + 1) * sizeof(Py_ssize_t));
    quote_first = PyMem_Malloc(((size_t)n_quotes + 2) * sizeof(Py_ssize_t));
    word_first = PyMem_Malloc(((size_t)n_quotes + 2) * sizeof(Py_ssize_t));
    if (quote_at == NULL || quote_first == NULL || word_first == NULL)
        goto no_memory;
    Py_ssize_t distinct = 0;
    for (Py_ssize_t k = 0; k < n_quotes; k++) {
        Py_ssize_t i = PyLong_AsSsize_t(PyList_GET_ITEM(quotes, k)), seen = 0;
        for (Py_ssize_t j = 0; j < distinct && !seen; j++)
            seen = quote_at[j] == i;
        if (!seen)
            quote_at[distinct++] = i;
    }
    /* the quotes' words first (their starts, and each quote's end, from word_first[q] in all_starts): a
       text's lower() may be longer than it ("İ"), so the 4-grams are counted before the table is sized */
    Py_ssize_t total_grams = 0, n_starts = 0, starts_size = 0;
    for (Py_ssize_t q = 0; q < distinct; q++) {
        if (quote_words_read(&w, PyList_GET_ITEM(texts, quote_at[q]), w.used) < 0)
            goto error;
        if (n_starts + w.words + 1 > starts_size) {
            Py_ssize_t size = (n_starts + w.words + 1) * 2;
            Py_ssize_t *grown = PyMem_Realloc(all_starts, (size_t)size * sizeof(Py_ssize_t));
            if (grown == NULL)
                goto no_memory;
            all_starts = grown;
            starts_size = size;
        }
        word_first[q] = n_starts;
        memcpy(all_starts + n_starts, w.starts, (size_t)(w.words + 1) * sizeof(Py_ssize_t));
        n_starts += w.words + 1;
        total_grams += w.words > 3 ? w.words - 3 : 0;
    }
    word_first[distinct] = n_starts;
    Py_ssize_t slots = 16;
    while (slots < 2 * total_grams + 16)
        slots *= 2;
    mask = slots - 1;
    table = PyMem_Calloc((size_t)slots, sizeof(QuoteGram));
    quote_grams = PyMem_Malloc(((size_t)total_grams + 1) * sizeof(Py_ssize_t));
    if (table == NULL || quote_grams == NULL)
        goto no_memory;
    Py_ssize_t n_listed = 0;
    for (Py_ssize_t q = 0; q < distinct; q++) {
        quote_first[q] = n_listed;
        const Py_ssize_t *starts = all_starts + word_first[q];
        Py_ssize_t words = word_first[q + 1] - word_first[q] - 1;
        for (Py_ssize_t g = 0; g + 3 < words; g++) {
            const Py_UCS4 *s = w.chars + starts[g];
            Py_ssize_t len = starts[g + 4] - 1 - starts[g];
            uint64_t h = quote_gram_hash(s, len);
            Py_ssize_t slot = quote_gram_slot(table, mask, w.chars, s, len, h);
            if (table[slot].len == 0) {
                table[slot] = (QuoteGram){.hash = h, .at = starts[g], .len = len, .last = -1, .held = 0};
                n_grams++;
            }
            if (table[slot].last != q) {
                table[slot].last = q;
                quote_grams[n_listed++] = slot;
            }
        }
    }
    quote_first[distinct] = n_listed;
    out = PySet_New(NULL);
    if (out == NULL)
        goto error;
    if (n_grams == 0)
        goto done;
    for (Py_ssize_t k = 0; k < slots; k++)
        table[k].last = -1;
    Py_ssize_t kept_from = w.used; /* the kept texts' words go after the quotes', which the table reads */
    for (Py_ssize_t e = 0; e < n_kept; e++) {
        Py_ssize_t i = PyLong_AsSsize_t(PyList_GET_ITEM(kept, e)), q = 0;
        while (q < distinct && quote_at[q] != i)
            q++;
        if (q < distinct) { /* a quote holds its own grams */
            for (Py_ssize_t g = quote_first[q]; g < quote_first[q + 1]; g++) {
                QuoteGram *gram = table + quote_grams[g];
                if (gram->last != e) {
                    gram->last = e;
                    gram->held++;
                }
            }
            continue;
        }
        if (quote_words_read(&w, PyList_GET_ITEM(texts, i), kept_from) < 0)
            goto error;
        for (Py_ssize_t g = 0; g + 3 < w.words; g++) {
            const Py_UCS4 *s = w.chars + w.starts[g];
            Py_ssize_t len = w.starts[g + 4] - 1 - w.starts[g];
            Py_ssize_t slot = quote_gram_slot(table, mask, w.chars, s, len, quote_gram_hash(s, len));
            QuoteGram *gram = table + slot;
            if (gram->len != 0 && gram->last != e) {
                gram->last = e;
                gram->held++;
            }
        }
    }
    for (Py_ssize_t q = 0; q < distinct; q++) {
        Py_ssize_t n = quote_first[q + 1] - quote_first[q], twice = 0;
        for (Py_ssize_t g = quote_first[q]; g < quote_first[q + 1]; g++)
            twice += table[quote_grams[g]].held >= 2;
        if (n > 0 && (double)twice >= share * (double)n) {
            PyObject *index = PyLong_FromSsize_t(quote_at[q]);
            if (index == NULL || PySet_Add(out, index) < 0) {
                Py_XDECREF(index);
                goto error;
            }
            Py_DECREF(index);
        }
    }
    goto done;
no_memory:
    PyErr_NoMemory();
error:
    Py_CLEAR(out);
done:
    PyMem_Free(w.chars);
    PyMem_Free(w.starts);
    PyMem_Free(table);
    PyMem_Free(quote_at);
    PyMem_Free(quote_first);
    PyMem_Free(quote_grams);
    PyMem_Free(word_first);
    PyMem_Free(all_starts);
    return out;
}

PyDoc_STRVAR(nesting_counts_doc,
             "nesting_counts(markup, voids, formatting, spellings) -> (steps, elements, options)\n\n"
             "guard._nesting_counts_python in C: one pass over the `<` of the markup.");

static PyObject *native_nesting_counts(PyObject *self, PyObject *args) {
    PyObject *markup, *voids, *formatting, *spellings;
    if (!PyArg_ParseTuple(args, "UO!O!O!", &markup, &PyTuple_Type, &voids, &PyTuple_Type, &formatting,
                          &PyTuple_Type, &spellings))
        return NULL;
    NameKinds kinds = {.count = 0};
    if (name_kinds_add(&kinds, voids, NAME_VOID) < 0 || name_kinds_add(&kinds, formatting, NAME_FORMATTING) < 0)
        return NULL;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(spellings); k++) {
        /* one `<`, the first character: each occurrence is met at its own `<`, as str.count meets it */
        PyObject *spelling = PyTuple_GET_ITEM(spellings, k);
        if (!PyUnicode_Check(spelling) || PyUnicode_GET_LENGTH(spelling) < 1 ||
            PyUnicode_FindChar(spelling, '<', 0, 1, 1) != 0 ||
            PyUnicode_FindChar(spelling, '<', 1, PyUnicode_GET_LENGTH(spelling), 1) != -1)
            return PyErr_Format(PyExc_ValueError, "spelling %R: one `<`, at its start", spelling);
    }
    const void *s = PyUnicode_DATA(markup);
    Py_ssize_t n = PyUnicode_GET_LENGTH(markup);
    Nesting t;
    BY_KIND(t, markup, nesting_scan, s, n, &kinds, spellings);
    return Py_BuildValue("(LLL)", t.steps, t.elements, t.options);
}

/* ------------------------------------------------------------------------------------------------ */
/* configure() and the layout probes native.py checks before turning the walk on                     */

static int table_set(PyObject *ids, unsigned char flag) {
    PyObject *it = PyObject_GetIter(ids);
    if (it == NULL)
        return -1;
    PyObject *x;
    while ((x = PyIter_Next(it)) != NULL) {
        size_t tid = PyLong_AsSize_t(x);
        Py_DECREF(x);
        if (tid == (size_t)-1 && PyErr_Occurred())
            break;
        if (tid >= cfg.ntags) {
            PyErr_Format(PyExc_ValueError, "tag id %zu past the table (%zu)", tid, cfg.ntags);
            break;
        }
        cfg.flags[tid] |= flag;
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

static void *symbol(void *lib, const char *name) {
    void *f = dlsym(lib, name);
    if (f == NULL)
        PyErr_Format(PyExc_ImportError, "lexbor function %s not found in selectolax", name);
    return f;
}

PyDoc_STRVAR(configure_doc,
             "configure(lexbor_library, text_id, a_id, br_id, block_names, void_ids, skip_ids, kind_by_id,\n"
             "          kinds, max_depth, every, hidden_class, hidden_style, class_hints, too_many_nodes)\n\n"
             "Hand over segment.py's tables (tag ids from selectolax, names and rules from heuristics.py).");

static PyObject *native_configure(PyObject *self, PyObject *args) {
    const char *library;
    unsigned long long text_id, a_id, br_id;
    PyObject *block_names, *void_ids, *skip_ids, *kind_by_id, *kinds, *hidden_class, *hidden_style, *hints,
        *too_many;
    int max_depth;
    Py_ssize_t every;
    if (!PyArg_ParseTuple(args, "sKKKO!OOO!O!inOOO!O", &library, &text_id, &a_id, &br_id, &PyDict_Type,
                          &block_names, &void_ids, &skip_ids, &PyDict_Type, &kind_by_id, &PyTuple_Type, &kinds,
                          &max_depth, &every, &hidden_class, &hidden_style, &PyTuple_Type, &hints, &too_many))
        return NULL;
    if (cfg.ready) {
        PyErr_SetString(PyExc_RuntimeError, "worker.clean._native is configured once");
        return NULL;
    }
    if (every <= 0 || max_depth <= 0 || PyTuple_GET_SIZE(kinds) == 0) {
        PyErr_SetString(PyExc_ValueError, "every and max_depth must be positive, kinds not empty");
        return NULL;
    }
    void *lib = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
    if (lib == NULL)
        return PyErr_Format(PyExc_ImportError, "cannot open selectolax's module %s: %s", library, dlerror());
    first_attr = (first_attr_f)symbol(lib, "lxb_dom_element_first_attribute_noi");
    next_attr = first_attr ? (next_attr_f)symbol(lib, "lxb_dom_element_next_attribute_noi") : NULL;
    attr_name = next_attr ? (attr_str_f)symbol(lib, "lxb_dom_attr_qualified_name") : NULL;
    attr_value = attr_name ? (attr_str_f)symbol(lib, "lxb_dom_attr_value_noi") : NULL;
    attr_local_name = attr_value ? (attr_str_f)symbol(lib, "lxb_dom_attr_local_name_noi") : NULL;
    if (attr_local_name == NULL)
        return NULL; /* the library stays open: selectolax holds it for the process's life anyway */
    /* Tables indexed by tag id, up to the largest id named (static ids of standard tags are small). */
    size_t ntags = 0;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    PyObject *all[] = {void_ids, skip_ids};
    while (PyDict_Next(block_names, &pos, &key, &value)) {
        size_t tid = PyLong_AsSize_t(key);
        if (tid == (size_t)-1 && PyErr_Occurred())
            return NULL;
        if (!PyUnicode_Check(value))
            return PyErr_Format(PyExc_TypeError, "block tag names must be str");
        ntags = tid + 1 > ntags ? tid + 1 : ntags;
    }
    for (int k = 0; k < 2; k++) {
        PyObject *it = PyObject_GetIter(all[k]);
        if (it == NULL)
            return NULL;
        PyObject *x;
        while ((x = PyIter_Next(it)) != NULL) {
            size_t tid = PyLong_AsSize_t(x);
            Py_DECREF(x);
            if (tid == (size_t)-1 && PyErr_Occurred())
                break;
            ntags = tid + 1 > ntags ? tid + 1 : ntags;
        }
        Py_DECREF(it);
        if (PyErr_Occurred())
            return NULL;
    }
    if (ntags > 4096)
        return PyErr_Format(PyExc_ValueError, "tag id %zu is not a standard tag's", ntags - 1);
    cfg.ntags = ntags;
    cfg.flags = PyMem_Calloc(ntags, 1);
    cfg.kind = PyMem_Malloc(ntags ? ntags : 1);
    cfg.names = PyMem_Calloc(ntags ? ntags : 1, sizeof(PyObject *));
    if (cfg.flags == NULL || cfg.kind == NULL || cfg.names == NULL)
        return PyErr_NoMemory();
    memset(cfg.kind, -1, ntags);
    pos = 0;
    while (PyDict_Next(block_names, &pos, &key, &value)) {
        size_t tid = PyLong_AsSize_t(key);
        cfg.flags[tid] |= F_BLOCK;
        cfg.names[tid] = Py_NewRef(value);
    }
    if (table_set(void_ids, F_VOID) < 0 || table_set(skip_ids, F_SKIP) < 0)
        return NULL;
    pos = 0;
    while (PyDict_Next(kind_by_id, &pos, &key, &value)) {
        size_t tid = PyLong_AsSize_t(key);
        long k = PyLong_AsLong(value);
        if (PyErr_Occurred())
            return NULL;
        if (tid >= ntags || !(cfg.flags[tid] & F_BLOCK) || k <= 0 || k >= PyTuple_GET_SIZE(kinds))
            return PyErr_Format(PyExc_ValueError, "kind %ld of tag id %zu", k, tid);
        cfg.kind[tid] = (signed char)k;
    }
    if (PyTuple_GET_SIZE(hints) > 32)
        return PyErr_Format(PyExc_ValueError, "at most 32 class hints");
    memset(cfg.hint_first, 0, sizeof cfg.hint_first);
    cfg.hint_empty = 0;
    cfg.hint_pairs = PyTuple_GET_SIZE(hints) <= 8 ? (int)PyTuple_GET_SIZE(hints) : 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(hints); i++) {
        PyObject *b = PyTuple_GET_ITEM(hints, i);
        if (!PyBytes_Check(b))
            return PyErr_Format(PyExc_TypeError, "class hints must be bytes");
        if (PyBytes_GET_SIZE(b) < 2)
            cfg.hint_pairs = 0; /* a hint of one byte: the byte-by-byte pass only */
        else if (i < 8)
            memcpy(cfg.hint_pair[i], PyBytes_AS_STRING(b), 2);
        if (PyBytes_GET_SIZE(b) == 0)
            cfg.hint_empty = 1;
        else
            cfg.hint_first[(unsigned char)PyBytes_AS_STRING(b)[0]] |= (uint32_t)1 << i;
    }
    cfg.text_id = (uintptr_t)text_id;
    cfg.a_id = (uintptr_t)a_id;
    cfg.br_id = (uintptr_t)br_id;
    cfg.kinds = Py_NewRef(kinds);
    cfg.max_depth = max_depth;
    cfg.every = every;
    cfg.hidden_class = Py_NewRef(hidden_class);
    cfg.hidden_style = Py_NewRef(hidden_style);
    cfg.class_hints = Py_NewRef(hints);
    cfg.too_many_nodes = Py_NewRef(too_many);
    cfg.stage = PyUnicode_InternFromString("segment");
    cfg.empty = PyUnicode_FromStringAndSize("", 0);
    if (cfg.stage == NULL || cfg.empty == NULL)
        return NULL;
    cfg.ready = 1;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(node_doc, "node(address) -> (tag_id, type, next, prev, parent, first_child, last_child)\n\n"
                       "The node fields as this module reads them (0 for NULL), for the layout check.");

static PyObject *native_node(PyObject *self, PyObject *arg) {
    unsigned long long address = PyLong_AsUnsignedLongLong(arg);
    if (PyErr_Occurred())
        return NULL;
    const Node *n = (const Node *)(uintptr_t)address;
    return Py_BuildValue("(KiKKKKK)", (unsigned long long)n->tag_id, n->type, (unsigned long long)(uintptr_t)n->next,
                         (unsigned long long)(uintptr_t)n->prev, (unsigned long long)(uintptr_t)n->parent,
                         (unsigned long long)(uintptr_t)n->first_child,
                         (unsigned long long)(uintptr_t)n->last_child);
}

PyDoc_STRVAR(text_doc, "text(address, expected_length) -> bytes | None\n\n"
                       "A text node's data as this module reads it, if its length is the one expected.");

static PyObject *native_text(PyObject *self, PyObject *args) {
    unsigned long long address;
    Py_ssize_t expected;
    if (!PyArg_ParseTuple(args, "Kn", &address, &expected))
        return NULL;
    const LexStr *t = &((const CharData *)(uintptr_t)address)->data;
    /* The data is read only when the length agrees: a wrong layout must fail the check, not crash. */
    if (t->data == NULL || (Py_ssize_t)t->length != expected)
        Py_RETURN_NONE;
    return PyBytes_FromStringAndSize((const char *)t->data, (Py_ssize_t)t->length);
}

PyDoc_STRVAR(attributes_doc, "attributes(address) -> list[tuple[bytes, bytes | None]]\n\n"
                             "An element's attributes as this module reads them, for the layout check.");

static PyObject *native_attributes(PyObject *self, PyObject *arg) {
    unsigned long long address = PyLong_AsUnsignedLongLong(arg);
    if (PyErr_Occurred())
        return NULL;
    if (!cfg.ready) {
        PyErr_SetString(PyExc_RuntimeError, "worker.clean._native is not configured");
        return NULL;
    }
    PyObject *list = PyList_New(0);
    if (list == NULL || ((const Node *)(uintptr_t)address)->type != NODE_ELEMENT)
        return list;
    for (void *at = first_attr((void *)(uintptr_t)address); at != NULL; at = next_attr(at)) {
        size_t n = 0, vn = 0;
        const unsigned char *name = attr_name(at, &n);
        const unsigned char *v = attr_value(at, &vn);
        PyObject *item = Py_BuildValue("(y#y#)", name, (Py_ssize_t)(name ? n : 0), v, (Py_ssize_t)(v ? vn : 0));
        if (item == NULL || PyList_Append(list, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(item);
    }
    return list;
}

/* ------------------------------------------------------------------------------------------------ */
/* Elements marked by tag or by a word in their class or id (worker/clean/meta/marked.py)          */

/* What lexbor's CSS scan `node.css("script, style")` or `node.css("[class*='date' i], [id*='date' i]")`
   finds, without a Python object per element: lexbor's find visits the node itself, then its
   descendants in document order (children, not a <template>'s content), and matches tag selectors by
   tag id in any namespace and `*= ... i` by an ASCII-case-insensitive substring of the attribute's bytes
   (the first attribute of the name; the HTML parser keeps no second one), and lists an element once
   per alternative of the selector list that matches it. Each match is given as its
   class and id (the last of the name, as selectolax's `attributes` dict gives them) and its text as
   selectolax's text(deep=True) makes it: the UTF-8 of the text nodes below it, decoded as a whole with
   "replace". */

static int value_of(Node *el, const char *name, size_t m, int last, const unsigned char **v, size_t *vn) {
    int found = 0;
    for (void *at = first_attr(el); at != NULL; at = next_attr(at)) {
        size_t n = 0;
        const unsigned char *an = attr_name(at, &n);
        if (an == NULL || n != m || memcmp(an, name, m) != 0)
            continue;
        size_t len = 0;
        *v = attr_value(at, &len);
        *vn = *v != NULL ? len : 0;
        found = 1;
        if (!last)
            break;
    }
    return found;
}

static inline unsigned char ascii_fold(unsigned char c) { return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c; }

/* Whether s[0:n] holds w[0:m] (m > 0): memchr (vectorised) finds the candidates for its first byte. */
static int holds(const unsigned char *s, size_t n, const char *w, size_t m) {
    if (m > n)
        return 0;
    const unsigned char *p = s, *last = s + (n - m); /* the last place it may start */
    while (p <= last && (p = memchr(p, (unsigned char)w[0], (size_t)(last - p) + 1)) != NULL) {
        if (memcmp(p + 1, w + 1, m - 1) == 0)
            return 1;
        p++;
    }
    return 0;
}

/* The words a scan looks for in a class or an id (lower-case ASCII, found in any ASCII case), by their first
   byte: bit i of by_first[c] is set when word i starts with c. One pass over a value then tries at each
   byte only the words starting with it (the date-like elements' seven words in each class of a page:
   seven memchr scans of it cost twice as many instructions, callgrind). */
enum { WORDS_MAX = 64 };
typedef struct {
    Py_ssize_t n;
    const char *w[WORDS_MAX];
    size_t len[WORDS_MAX];
    uint64_t by_first[256];
} WordSet;

/* `words` (a tuple of bytes, at most WORDS_MAX) as a WordSet; -1 with an exception when it is not one. */
static int words_of(PyObject *words, WordSet *out) {
    memset(out->by_first, 0, sizeof out->by_first);
    out->n = PyTuple_GET_SIZE(words);
    if (out->n > WORDS_MAX) {
        PyErr_Format(PyExc_ValueError, "at most %d words", WORDS_MAX);
        return -1;
    }
    for (Py_ssize_t i = 0; i < out->n; i++) {
        PyObject *w = PyTuple_GET_ITEM(words, i);
        out->w[i] = PyBytes_AS_STRING(w);
        out->len[i] = (size_t)PyBytes_GET_SIZE(w);
        if (out->len[i] > 0) /* an empty word is held by no value (as the reference counts it) */
            out->by_first[(unsigned char)out->w[i][0]] |= (uint64_t)1 << i;
    }
    return 0;
}

/* How many of `ws` v[0:vn] holds, in any ASCII case (each word once, wherever it is). */
static Py_ssize_t words_held(const unsigned char *v, size_t vn, const WordSet *ws) {
    uint64_t found = 0;
    for (size_t i = 0; i < vn; i++) {
        uint64_t maybe = ws->by_first[ascii_fold(v[i])] & ~found;
        for (; maybe; maybe &= maybe - 1) {
            int k = __builtin_ctzll(maybe);
            size_t wn = ws->len[k], j = 1;
            if (wn > vn - i)
                continue;
            while (j < wn && ascii_fold(v[i + j]) == (unsigned char)ws->w[k][j])
                j++;
            if (j == wn)
                found |= (uint64_t)1 << k;
        }
    }
    return __builtin_popcountll(found);
}

static PyObject *attr_or_none(Node *el, const char *name, size_t m) {
    const unsigned char *v = NULL;
    size_t vn = 0;
    if (!value_of(el, name, m, 1, &v, &vn) || v == NULL)
        Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8((const char *)v, (Py_ssize_t)vn, "replace");
}

/* The node after `node` in document order within `root`'s subtree (children first), NULL past its end. */
static inline Node *next_in_subtree(Node *node, const Node *root) {
    if (node->first_child != NULL)
        return node->first_child;
    while (node != root && node->next == NULL)
        node = node->parent;
    return node == root ? NULL : node->next;
}

/* selectolax's text(deep=True) of `root`, or None when it is longer than `max_chars` characters: then
   its UTF-8 is not read past 4 * max_chars bytes (no character takes more, nor does a "replace" of
   invalid bytes) and only a text within that is decoded and measured. */
static PyObject *deep_text(Node *root, Buf *buf, Py_ssize_t max_chars) {
    size_t max_bytes = max_chars < PY_SSIZE_T_MAX / 4 ? (size_t)max_chars * 4 : (size_t)PY_SSIZE_T_MAX;
    buf->n = 0;
    Node *node = root->first_child;
    while (node != NULL) {
        if (node->tag_id == cfg.text_id) {
            const LexStr *t = &((const CharData *)node)->data;
            if (t->data != NULL && t->length > 0) {
                if (buf_reserve(buf, t->length) < 0)
                    return NULL;
                memcpy(buf->b + buf->n, t->data, t->length);
                buf->n += t->length;
                if (buf->n > max_bytes)
                    Py_RETURN_NONE;
            }
        }
        node = next_in_subtree(node, root);
    }
    PyObject *text = PyUnicode_DecodeUTF8((const char *)buf->b, (Py_ssize_t)buf->n, "replace");
    if (text != NULL && PyUnicode_GET_LENGTH(text) > max_chars)
        Py_SETREF(text, Py_NewRef(Py_None));
    return text;
}

enum { MARKED_TAGS_MAX = 16 };

/* How many alternatives of the selector list name `el`: lexbor's find reports an element once per
   alternative that matches it ("[class*='date' i], [class*='meta' i]" lists a "date-meta" twice). */
static Py_ssize_t marked(Node *el, const uintptr_t *tags, Py_ssize_t ntags, const WordSet *in_class, const WordSet *in_id) {
    if (el->type != NODE_ELEMENT)
        return 0;
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < ntags; i++)
        k += tags[i] == el->tag_id;
    if (in_class->n == 0 && in_id->n == 0)
        return k;
    /* the first class and the first id (the HTML parser keeps no second one), in one pass */
    const unsigned char *cls = NULL, *id = NULL;
    size_t cn = 0, idn = 0;
    int seen_cls = 0, seen_id = 0;
    for (void *at = first_attr(el); at != NULL && !(seen_cls && seen_id); at = next_attr(at)) {
        size_t n = 0;
        const unsigned char *an = attr_name(at, &n);
        if (an == NULL)
            continue;
        if (n == 5 && !seen_cls && memcmp(an, "class", 5) == 0) {
            seen_cls = 1;
            cls = attr_value(at, &cn);
        } else if (n == 2 && !seen_id && memcmp(an, "id", 2) == 0) {
            seen_id = 1;
            id = attr_value(at, &idn);
        }
    }
    if (cls != NULL)
        k += words_held(cls, cn, in_class);
    if (id != NULL)
        k += words_held(id, idn, in_id);
    return k;
}

PyDoc_STRVAR(marked_doc,
             "marked(address, tag_ids, in_class, in_id, limit, max_chars)\n"
             "    -> list[tuple[str | None, str | None, str | None]]\n\n"
             "The node at `address` and its descendants, in document order, that are elements with a tag id\n"
             "in `tag_ids`, a class holding one of `in_class` or an id holding one of `in_id` (words in lower-\n"
             "case ASCII, found in any ASCII case), once per tag or word that names it, as lexbor's CSS find\n"
             "lists them; at most `limit`: each one's class, id and text, as selectolax's attributes and\n"
             "text() give them (None for a text longer than `max_chars`).");

static PyObject *native_marked(PyObject *self, PyObject *args) {
    unsigned long long address;
    PyObject *tag_ids, *in_class, *in_id;
    Py_ssize_t limit, max_chars;
    if (!PyArg_ParseTuple(args, "KO!O!O!nn", &address, &PyTuple_Type, &tag_ids, &PyTuple_Type, &in_class,
                          &PyTuple_Type, &in_id, &limit, &max_chars))
        return NULL;
    if (max_chars < 0 || limit < 0)
        return PyErr_Format(PyExc_ValueError, "limit and max_chars must not be negative");
    if (!cfg.ready) {
        PyErr_SetString(PyExc_RuntimeError, "worker.clean._native is not configured");
        return NULL;
    }
    uintptr_t tags[MARKED_TAGS_MAX];
    Py_ssize_t ntags = PyTuple_GET_SIZE(tag_ids);
    if (ntags > MARKED_TAGS_MAX)
        return PyErr_Format(PyExc_ValueError, "at most %d tag ids", MARKED_TAGS_MAX);
    for (Py_ssize_t i = 0; i < ntags; i++) {
        tags[i] = (uintptr_t)PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(tag_ids, i));
        if (PyErr_Occurred())
            return NULL;
    }
    PyObject *lists[] = {in_class, in_id};
    for (int k = 0; k < 2; k++)
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(lists[k]); i++) {
            PyObject *w = PyTuple_GET_ITEM(lists[k], i);
            if (!PyBytes_Check(w))
                return PyErr_Format(PyExc_TypeError, "words must be bytes");
            for (Py_ssize_t j = 0; j < PyBytes_GET_SIZE(w); j++)
                if (PyBytes_AS_STRING(w)[j] >= 'A' && PyBytes_AS_STRING(w)[j] <= 'Z')
                    return PyErr_Format(PyExc_ValueError, "words must be lower case: %R", w);
        }
    WordSet class_words, id_words;
    if (words_of(in_class, &class_words) < 0 || words_of(in_id, &id_words) < 0)
        return NULL;
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    Buf buf = {0};
    Node *root = (Node *)(uintptr_t)address;
    Node *node = root;
    while (node != NULL && PyList_GET_SIZE(out) < limit) {
        Py_ssize_t times = marked(node, tags, ntags, &class_words, &id_words);
        if (times > 0) {
            PyObject *item = NULL, *cls = attr_or_none(node, "class", 5);
            PyObject *id = cls != NULL ? attr_or_none(node, "id", 2) : NULL;
            PyObject *text = id != NULL ? deep_text(node, &buf, max_chars) : NULL;
            if (text != NULL)
                item = PyTuple_Pack(3, cls, id, text);
            Py_XDECREF(cls);
            Py_XDECREF(id);
            Py_XDECREF(text);
            for (Py_ssize_t i = 0; item != NULL && i < times && PyList_GET_SIZE(out) < limit; i++)
                if (PyList_Append(out, item) < 0) {
                    Py_CLEAR(item);
                }
            if (item == NULL) {
                Py_DECREF(out);
                PyMem_Free(buf.b);
                return NULL;
            }
            Py_DECREF(item);
        }
        node = next_in_subtree(node, root);
    }
    PyMem_Free(buf.b);
    return out;
}

/* ------------------------------------------------------------------------------------------------ */
/* Elements a simple selector list names, as selectolax nodes (worker/clean/meta/select.py)          */

/* What `root.css(selector list)` returns for lists of compounds of a tag and attribute conditions
   (`meta`, `abbr[title]`, `[property][content]`, `script[type*='ld+json' i]`, `a[rel~='author']`,
   `.author`), without lexbor's selector engine, which costs ~0.1 ms a scan of a body whatever the
   selector: the walk is marked()'s (the root, then its descendants in document order), an element is
   listed once per compound that matches it, and the conditions are lexbor's (lxb_selectors_match_attribute
   in lexbor/selectors/selectors.c): an attribute is found by its local name (the first of the name); a
   valueless one reads as ""; `=` tests the whole value; `*=` is a substring test, false for an empty value; `~=` and the class
   selector (lexbor matches classes in any ASCII case) a word test, words split at lexbor's whitespace
   (space, tab, LF, FF, CR); `i` compares in any ASCII case. Each match is made a LexborNode as
   selectolax's LexborNode.new makes one: the type's tp_new, then the node pointer and the parser set at
   the offsets configure_nodes() found in a node selectolax made (native.py checks the result against
   lexbor's scan at import). */

enum { SEL_EXISTS = 0, SEL_SUBSTRING = 1, SEL_WORD = 2, SEL_EQUALS = 3 };
/* Case modes of a value's test: as written; in any ASCII case; in any ASCII case on an element in the HTML
   namespace (HTML's attributes whose values selectors match in any case: rel, type...); in any ASCII case
   in a document in quirks mode (class names). */
enum { SEL_CASE_EXACT = 0, SEL_CASE_ANY = 1, SEL_CASE_HTML = 2, SEL_CASE_QUIRKS = 3 };
enum { SEL_COMPOUNDS_MAX = 16, SEL_CONDS_MAX = 4, SEL_NAMES_MAX = 32, SEL_TAG_BITS = 1024, SEL_IDS = 128 };
enum { CMODE_QUIRKS = 1 }; /* lxb_dom_document_cmode_t */

/* The head of lexbor's lxb_dom_document_t: its node, then its compatibility mode. */
typedef struct {
    Node node;
    int compat_mode;
} Document;

typedef struct {
    const char *name, *value;
    size_t nlen, vlen;
    int op, ci;
    int slot; /* index of the attribute's name in SelList.names */
    int spaced; /* the value holds whitespace: no word equals it */
} SelCond;

typedef struct {
    uintptr_t tag; /* 0: any element */
    Py_ssize_t nconds;
    SelCond conds[SEL_CONDS_MAX];
    uint32_t needs; /* a bit per attribute name the conditions read (SelList.names) */
} SelCompound;

/* A selector list as select() runs it: the compounds; those naming no tag (tried on every element) and
   those naming one (tried on elements of a tag in `tags` only); the attribute names the conditions read,
   found per attribute by its first byte and length (a bit per name in by_first and by_length), and what
   the current element has of each. */
typedef struct {
    SelCompound sel[SEL_COMPOUNDS_MAX];
    Py_ssize_t n;
    Py_ssize_t any[SEL_COMPOUNDS_MAX], nany, tagged[SEL_COMPOUNDS_MAX], ntagged;
    int any_reads; /* a compound of any tag tests an attribute: every element's are read */
    uint64_t tags[SEL_TAG_BITS / 64]; /* tag ids past these are tried on every compound that names a tag */
    const char *names[SEL_NAMES_MAX];
    size_t lens[SEL_NAMES_MAX];
    int nnames;
    uint32_t by_first[256], by_length[64];
    uint32_t found;
    const unsigned char *values[SEL_NAMES_MAX];
    size_t vlens[SEL_NAMES_MAX];
    int quirks; /* the document is in quirks mode */
    /* The slot (1 + index in names; 0: none) of each attribute name met, by lexbor's id of the name (one
       per name in a document: the local name field of the attribute's node), so that a name is looked up
       and compared once a scan, not once per attribute (a scan of a body meets ~2,000 attributes of ~30
       names). An open-addressing table; a name met when it is full is looked up each time. */
    uintptr_t ids[SEL_IDS];
    unsigned char id_slots[SEL_IDS];
    int nids;
} SelList;

static struct {
    PyTypeObject *type; /* LexborNode (owned) */
    Py_ssize_t node_offset, parser_offset;
    uintptr_t html_ns; /* the namespace id of the sample node, an HTML element */
} nodes_cfg;


static int bytes_eq(const unsigned char *a, const unsigned char *b, size_t n, int ci) {
    if (!ci)
        return memcmp(a, b, n) == 0;
    for (size_t i = 0; i < n; i++)
        if (ascii_fold(a[i]) != ascii_fold(b[i]))
            return 0;
    return 1;
}

static unsigned char lexbor_spaces[256]; /* space, tab, LF, FF, CR: lexbor_utils_whitespace */
static inline int lexbor_space(unsigned char c) { return lexbor_spaces[c]; }

static int value_holds(const SelCond *c, int ci, const unsigned char *v, size_t vn) {
    const unsigned char *want = (const unsigned char *)c->value;
    if (c->op == SEL_EQUALS) /* the whole value */
        return vn == c->vlen && bytes_eq(v, want, vn, ci);
    if (c->op == SEL_SUBSTRING) {
        for (size_t i = 0; i + c->vlen <= vn; i++)
            if (bytes_eq(v + i, want, c->vlen, ci))
                return 1;
        return 0;
    }
    /* SEL_WORD: a run of non-whitespace equal to the value, i.e. (the value holding none) the value with
       whitespace or an end on both sides; tried where its first byte is (in either case when `ci`) */
    if (c->spaced)
        return 0;
    unsigned char f0 = want[0], f1 = want[0];
    if (ci) {
        f0 = ascii_fold(want[0]);
        f1 = f0 >= 'a' && f0 <= 'z' ? (unsigned char)(f0 - 32) : f0;
    }
    if (c->vlen > vn)
        return 0;
    size_t last = vn - c->vlen, i = 0; /* the value can start at 0..last */
#ifdef __SSE2__
    /* sixteen positions a step: the ones holding the first byte (most steps hold none) */
    const __m128i a0 = _mm_set1_epi8((char)f0), a1 = _mm_set1_epi8((char)f1);
    for (; i + 16 <= vn; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(v + i));
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, a0), _mm_cmpeq_epi8(x, a1)));
        for (; m; m &= m - 1) {
            size_t at = i + (size_t)__builtin_ctz(m), e = at + c->vlen;
            if (at > last)
                return 0;
            if ((at == 0 || lexbor_space(v[at - 1])) && (e == vn || lexbor_space(v[e])) &&
                bytes_eq(v + at, want, c->vlen, ci))
                return 1;
        }
    }
#endif
    for (; i <= last; i++) {
        if (v[i] != f0 && v[i] != f1)
            continue;
        size_t e = i + c->vlen;
        if ((i == 0 || lexbor_space(v[i - 1])) && (e == vn || lexbor_space(v[e])) && bytes_eq(v + i, want, c->vlen, ci))
            return 1;
    }
    return 0;
}

/* 1 + the index in the list's names of the attribute's local name, 0 when it is none of them. */
static int sel_slot_by_name(const SelList *l, void *at) {
    size_t n = 0;
    const unsigned char *an = attr_local_name(at, &n);
    if (an == NULL || n == 0 || n >= 64)
        return 0;
    for (uint32_t maybe = l->by_first[an[0]] & l->by_length[n]; maybe; maybe &= maybe - 1) {
        int i = __builtin_ctz(maybe);
        if (memcmp(an, l->names[i], n) == 0)
            return i + 1;
    }
    return 0;
}

static int sel_slot(SelList *l, void *at) {
    uintptr_t id = ((const Node *)at)->tag_id;
    if (id == 0)
        return sel_slot_by_name(l, at);
    for (size_t h = (size_t)((id >> 4) ^ id) & (SEL_IDS - 1);; h = (h + 1) & (SEL_IDS - 1)) {
        if (l->ids[h] == id)
            return l->id_slots[h];
        if (l->ids[h] != 0)
            continue;
        int slot = sel_slot_by_name(l, at);
        if (l->nids < SEL_IDS / 2) { /* half full at most: a probe ends soon */
            l->ids[h] = id;
            l->id_slots[h] = (unsigned char)slot;
            l->nids++;
        }
        return slot;
    }
}

/* The element's attributes of the list's names: the first of each name, by its local name. */
static void read_sel_attrs(Node *el, SelList *l) {
    l->found = 0;
    for (void *at = first_attr(el); at != NULL; at = next_attr(at)) {
        int slot = sel_slot(l, at) - 1;
        if (slot < 0 || (l->found >> slot) & 1)
            continue;
        l->found |= (uint32_t)1 << slot;
        size_t vn = 0;
        l->values[slot] = attr_value(at, &vn);
        l->vlens[slot] = l->values[slot] != NULL ? vn : 0;
    }
}

static inline __attribute__((always_inline)) int compound_holds(const SelList *l, const SelCompound *c,
                                                               const Node *el) {
    if ((l->found & c->needs) != c->needs)
        return 0;
    for (Py_ssize_t j = 0; j < c->nconds; j++) {
        const SelCond *d = &c->conds[j];
        if (d->op == SEL_EXISTS)
            continue;
        int ci = d->ci == SEL_CASE_HTML ? el->ns == nodes_cfg.html_ns : d->ci == SEL_CASE_QUIRKS ? l->quirks : d->ci;
        if (!value_holds(d, ci, l->values[d->slot], l->vlens[d->slot]))
            return 0;
    }
    return 1;
}

/* How many compounds of the list name `el` (lexbor lists an element once per compound that does). */
static Py_ssize_t compounds_matching(Node *el, SelList *l) {
    uintptr_t tid = el->tag_id;
    /* A text node (most nodes) is known by its tag id, on the cache line of the links the walk reads; the
       node type is the struct's last field, often on the next line. */
    if (tid == cfg.text_id || el->type != NODE_ELEMENT)
        return 0;
    int tagged = l->ntagged > 0 && (tid >= SEL_TAG_BITS || (l->tags[tid >> 6] >> (tid & 63)) & 1);
    if (!tagged && l->nany == 0)
        return 0;
    /* the attributes are read once, before the first compound that tests any */
    int read = l->nany > 0 && l->any_reads;
    if (read)
        read_sel_attrs(el, l);
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < l->nany; i++) /* compounds of any tag */
        k += compound_holds(l, &l->sel[l->any[i]], el);
    for (Py_ssize_t i = 0; tagged && i < l->ntagged; i++) {
        const SelCompound *c = &l->sel[l->tagged[i]];
        if (c->tag != tid)
            continue;
        if (c->nconds > 0 && !read) {
            read_sel_attrs(el, l);
            read = 1;
        }
        k += compound_holds(l, c, el);
    }
    return k;
}

static int sel_name(SelList *l, const char *name, size_t n) {
    for (int k = 0; k < l->nnames; k++)
        if (l->lens[k] == n && memcmp(l->names[k], name, n) == 0)
            return k;
    if (l->nnames == SEL_NAMES_MAX || n == 0 || n >= 64) {
        PyErr_Format(PyExc_ValueError, "at most %d attribute names, each of 1 to 63 bytes", SEL_NAMES_MAX);
        return -1;
    }
    int k = l->nnames++;
    l->names[k] = name;
    l->lens[k] = n;
    l->by_first[(unsigned char)name[0]] |= (uint32_t)1 << k;
    l->by_length[n] |= (uint32_t)1 << k;
    return k;
}

/* The list from select()'s `compounds` (whose bytes it points into: they outlive the call). */
static int sel_list(PyObject *spec, SelList *l) {
    memset(l, 0, sizeof *l);
    l->n = PyTuple_GET_SIZE(spec);
    if (l->n > SEL_COMPOUNDS_MAX) {
        PyErr_Format(PyExc_ValueError, "at most %d compounds", SEL_COMPOUNDS_MAX);
        return -1;
    }
    for (Py_ssize_t i = 0; i < l->n; i++) {
        SelCompound *c = &l->sel[i];
        unsigned long long tag;
        PyObject *conds;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(spec, i), "KO!", &tag, &PyTuple_Type, &conds))
            return -1;
        c->tag = (uintptr_t)tag;
        c->nconds = PyTuple_GET_SIZE(conds);
        if (c->nconds > SEL_CONDS_MAX) {
            PyErr_Format(PyExc_ValueError, "at most %d conditions a compound", SEL_CONDS_MAX);
            return -1;
        }
        for (Py_ssize_t j = 0; j < c->nconds; j++) {
            SelCond *d = &c->conds[j];
            Py_ssize_t nlen, vlen;
            if (!PyArg_ParseTuple(PyTuple_GET_ITEM(conds, j), "y#iy#i", &d->name, &nlen, &d->op, &d->value, &vlen,
                                  &d->ci))
                return -1;
            if (d->op < SEL_EXISTS || d->op > SEL_EQUALS || d->ci < SEL_CASE_EXACT || d->ci > SEL_CASE_QUIRKS) {
                PyErr_Format(PyExc_ValueError, "unknown test %d or case mode %d", d->op, d->ci);
                return -1;
            }
            if (d->op != SEL_EXISTS && vlen == 0) {
                PyErr_SetString(PyExc_ValueError, "a test of a value needs a value");
                return -1;
            }
            d->nlen = (size_t)nlen;
            d->vlen = (size_t)vlen;
            d->spaced = 0;
            for (Py_ssize_t k = 0; k < vlen; k++)
                d->spaced |= lexbor_space((unsigned char)d->value[k]);
            if ((d->slot = sel_name(l, d->name, d->nlen)) < 0)
                return -1;
            c->needs |= (uint32_t)1 << d->slot;
        }
        if (c->tag == 0) {
            l->any[l->nany++] = i;
            l->any_reads |= c->nconds > 0;
        } else {
            l->tagged[l->ntagged++] = i;
            if (c->tag < SEL_TAG_BITS)
                l->tags[c->tag >> 6] |= (uint64_t)1 << (c->tag & 63);
        }
    }
    return 0;
}

/* The offset in `obj` (a pointer-aligned word after the object header) that holds `value`, or -1 when
   none or more than one does. */
static Py_ssize_t word_offset(PyObject *obj, uintptr_t value) {
    Py_ssize_t found = -1;
    for (Py_ssize_t off = (Py_ssize_t)sizeof(PyObject); off + (Py_ssize_t)sizeof(uintptr_t) <= Py_TYPE(obj)->tp_basicsize;
         off += (Py_ssize_t)sizeof(uintptr_t)) {
        uintptr_t word;
        memcpy(&word, (char *)obj + off, sizeof word);
        if (word == value) {
            if (found >= 0)
                return -1;
            found = off;
        }
    }
    return found;
}

PyDoc_STRVAR(configure_nodes_doc,
             "configure_nodes(sample, address, parser) -> (node_offset, parser_offset)\n\n"
             "Where a selectolax node keeps its lexbor node and its parser, found in `sample` (a node\n"
             "selectolax made, of `address` in the tree of `parser`, an HTML element: its namespace is\n"
             "HTML's): select() makes its nodes so.");

static PyObject *native_configure_nodes(PyObject *self, PyObject *args) {
    PyObject *sample, *parser;
    unsigned long long address;
    if (!PyArg_ParseTuple(args, "OKO", &sample, &address, &parser))
        return NULL;
    Py_ssize_t node_offset = word_offset(sample, (uintptr_t)address);
    Py_ssize_t parser_offset = word_offset(sample, (uintptr_t)parser);
    if (node_offset < 0 || parser_offset < 0 || address == 0)
        return PyErr_Format(PyExc_ValueError, "no single word of the node holds its address and its parser");
    if (Py_TYPE(sample)->tp_new == NULL)
        return PyErr_Format(PyExc_TypeError, "the node's type makes no objects");
    Py_XSETREF(nodes_cfg.type, (PyTypeObject *)Py_NewRef(Py_TYPE(sample)));
    nodes_cfg.node_offset = node_offset;
    nodes_cfg.parser_offset = parser_offset;
    nodes_cfg.html_ns = ((const Node *)(uintptr_t)address)->ns;
    return Py_BuildValue("(nn)", node_offset, parser_offset);
}

static PyObject *make_node(Node *node, PyObject *parser, PyObject *no_args) {
    PyObject *obj = nodes_cfg.type->tp_new(nodes_cfg.type, no_args, NULL);
    if (obj == NULL)
        return NULL;
    memcpy((char *)obj + nodes_cfg.node_offset, &node, sizeof node);
    PyObject **slot = (PyObject **)((char *)obj + nodes_cfg.parser_offset);
    Py_XSETREF(*slot, Py_NewRef(parser));
    return obj;
}

PyDoc_STRVAR(select_doc,
             "select(root, compounds) -> list[LexborNode]\n\n"
             "The elements at and below `root` (a selectolax node) that the compounds name, in document order,\n"
             "each once per compound that names it, as selectolax's css() lists them. A compound is (tag id or\n"
             "0, ((local name, op, value, any case), ...)) as bytes; op 0: the attribute is there, 1: its value\n"
             "holds `value`, 2: one of its whitespace-separated words is `value`.");

typedef struct MetaRead MetaRead;
/* The scan of select() and select_metas() (m: how <meta>s and itemprops are read; NULL: as nodes). */
static PyObject *selected(PyObject *root_obj, PyObject *spec, const MetaRead *m);

static PyObject *native_select(PyObject *self, PyObject *args) {
    PyObject *root_obj, *spec;
    if (!PyArg_ParseTuple(args, "OO!", &root_obj, &PyTuple_Type, &spec))
        return NULL;
    return selected(root_obj, spec, NULL);
}

/* ------------------------------------------------------------------------------------------------ */
/* The text around the headline (worker/clean/meta/header.py's _after_python and _before_python)    */

enum { WALK_TAGS_MAX = 16 };

typedef struct {
    uintptr_t skip[WALK_TAGS_MAX], stop[WALK_TAGS_MAX];
    Py_ssize_t nskip, nstop;
} WalkTags;

static int id_in_set(const uintptr_t *set, Py_ssize_t n, uintptr_t tag) {
    for (Py_ssize_t i = 0; i < n; i++)
        if (set[i] == tag)
            return 1;
    return 0;
}

static int read_tag_ids(PyObject *tuple, uintptr_t *out, Py_ssize_t *n) {
    *n = PyTuple_GET_SIZE(tuple);
    if (*n > WALK_TAGS_MAX) {
        PyErr_Format(PyExc_ValueError, "at most %d tag ids", WALK_TAGS_MAX);
        return -1;
    }
    for (Py_ssize_t i = 0; i < *n; i++) {
        out[i] = (uintptr_t)PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(tuple, i));
        if (PyErr_Occurred())
            return -1;
    }
    return 0;
}

/* " ".join((node.text_content or "").split()) of a node tagged as text (text_content is None for a
   node of another type and for one without data), into `part`: its length in characters, -1 when the
   text is not valid UTF-8 (then the caller runs the Python walk: selectolax decodes with "replace"), -2
   on an error. The walks fold into byte buffers: a Python string per text node and per word (str.split)
   cost more than the walk (append_folded's predicate is str.split's). */
static int append_folded(Buf *out, const unsigned char *s, size_t n, int *pending); /* the text's section */

static Py_ssize_t folded_part(Node *node, Buf *part) {
    part->n = 0;
    const LexStr *t = &((const CharData *)node)->data;
    if (node->type != NODE_TEXT || t->data == NULL)
        return 0;
    int pending = 0;
    if (append_folded(part, t->data, t->length, &pending) < 0)
        return PyErr_Occurred() ? -2 : -1;
    Py_ssize_t chars = 0;
    for (size_t i = 0; i < part->n; i++)
        chars += (part->b[i] & 0xC0) != 0x80;
    return chars;
}

/* Appends `part` to `out` after a space when `out` holds text (" ".join of the parts). */
static int join_part(Buf *out, const Buf *part) {
    if (buf_reserve(out, part->n + 1) < 0)
        return -1;
    if (out->n > 0)
        out->b[out->n++] = ' ';
    memcpy(out->b + out->n, part->b, part->n);
    out->n += part->n;
    return 0;
}

/* The walk after `node`: 1 with the joined parts in `out` and *cut when the text is to be cut at `limit`,
   0 when a text is not valid UTF-8, -1 on an error. */
static int text_after(Node *node, Py_ssize_t limit, Py_ssize_t max_nodes, const WalkTags *wt, Buf *out,
                      Buf *part, int *cut) {
    Py_ssize_t size = 0;
    Node *cur = node;
    int descend = 1, title_words = 1;
    *cut = 1;
    for (Py_ssize_t i = 0; i < max_nodes; i++) {
        Node *nxt = descend && cur != NULL ? cur->first_child : NULL;
        while (nxt == NULL && cur != NULL) {
            nxt = cur->next;
            if (nxt == NULL) {
                cur = cur->parent;
                if (cur == NULL || id_in_set(wt->stop, wt->nstop, cur->tag_id)) {
                    *cut = 0; /* the walk left the page's body: its text is returned whole */
                    return 1;
                }
            }
        }
        if (nxt == NULL)
            break;
        cur = nxt;
        uintptr_t tag = cur->tag_id;
        descend = !id_in_set(wt->skip, wt->nskip, tag) && tag != cfg.text_id;
        if (tag != cfg.text_id)
            continue;
        Py_ssize_t chars = folded_part(cur, part);
        if (chars < 0)
            return chars == -1 ? 0 : -1;
        if (chars == 0)
            continue;
        if (title_words) {
            title_words = 0;
            continue;
        }
        if (join_part(out, part) < 0)
            return -1;
        size += chars + 1;
        if (size >= limit)
            break;
    }
    return 1;
}

/* The walk before `node`: 1 with the parts, nearest first, in `out` (each after a space but the first),
   their (start, end) bytes in `spans`; 0 when a text is not valid UTF-8, -1 on an error. */
static int text_before(Node *node, Py_ssize_t limit, Py_ssize_t max_nodes, const WalkTags *wt, Buf *out,
                       Buf *part, Vec *spans) {
    Py_ssize_t size = 0;
    Node *cur = node;
    for (Py_ssize_t i = 0; i < max_nodes; i++) {
        if (cur == NULL)
            break;
        Node *prev = cur->prev;
        if (prev == NULL) {
            cur = cur->parent; /* an ancestor has no text of its own: go on before it */
            if (cur == NULL || id_in_set(wt->stop, wt->nstop, cur->tag_id))
                break;
            continue;
        }
        cur = prev;
        while (!id_in_set(wt->skip, wt->nskip, cur->tag_id) && cur->last_child != NULL)
            cur = cur->last_child;
        if (cur->tag_id != cfg.text_id)
            continue;
        Py_ssize_t chars = folded_part(cur, part);
        if (chars < 0)
            return chars == -1 ? 0 : -1;
        if (chars == 0)
            continue;
        Py_ssize_t at = (Py_ssize_t)out->n + (out->n > 0);
        if (join_part(out, part) < 0 || vec_push(spans, at) < 0 || vec_push(spans, (Py_ssize_t)out->n) < 0)
            return -1;
        size += chars + 1;
        if (size >= limit)
            break;
    }
    return 1;
}

PyDoc_STRVAR(header_text_doc,
             "header_text(address, after, limit, max_nodes, skipped_ids, stop_ids) -> str\n\n"
             "header.py's walk from the node at `address` through the text nodes after it in document order\n"
             "(`after`) or before it, about `limit` characters, at most `max_nodes` steps; into no element of\n"
             "`skipped_ids`, never out of one of `stop_ids`. None when a text is not valid UTF-8: the caller\n"
             "runs the Python walk.");

static PyObject *native_header_text(PyObject *self, PyObject *args) {
    unsigned long long address;
    int after;
    Py_ssize_t limit, max_nodes;
    PyObject *skipped, *stops;
    if (!PyArg_ParseTuple(args, "KpnnO!O!", &address, &after, &limit, &max_nodes, &PyTuple_Type, &skipped,
                          &PyTuple_Type, &stops))
        return NULL;
    if (!cfg.ready) {
        PyErr_SetString(PyExc_RuntimeError, "worker.clean._native is not configured");
        return NULL;
    }
    if (limit < 0)
        return PyErr_Format(PyExc_ValueError, "limit must not be negative");
    WalkTags wt;
    if (read_tag_ids(skipped, wt.skip, &wt.nskip) < 0 || read_tag_ids(stops, wt.stop, &wt.nstop) < 0)
        return NULL;
    Buf out = {0}, part = {0}, joined = {0};
    Vec spans = {0};
    PyObject *text = NULL;
    Node *node = (Node *)(uintptr_t)address;
    int cut = 0;
    int ok = after ? text_after(node, limit, max_nodes, &wt, &out, &part, &cut)
                   : text_before(node, limit, max_nodes, &wt, &out, &part, &spans);
    if (ok <= 0) {
        if (ok == 0)
            text = Py_NewRef(Py_None);
        goto done;
    }
    const Buf *whole = &out;
    if (!after && spans.n > 2) { /* the parts in document order: the farthest first */
        if (buf_reserve(&joined, out.n) < 0)
            goto done;
        for (Py_ssize_t k = spans.n - 2; k >= 0; k -= 2) {
            if (joined.n > 0)
                joined.b[joined.n++] = ' ';
            size_t a = (size_t)spans.v[k], b = (size_t)spans.v[k + 1];
            memcpy(joined.b + joined.n, out.b + a, b - a);
            joined.n += b - a;
        }
        whole = &joined;
    }
    text = PyUnicode_DecodeUTF8(whole->n ? (const char *)whole->b : "", (Py_ssize_t)whole->n, "strict");
    Py_ssize_t n = text != NULL ? PyUnicode_GET_LENGTH(text) : 0;
    if (text != NULL && after && cut && n > limit)
        Py_SETREF(text, PyUnicode_Substring(text, 0, limit));
    else if (text != NULL && !after && n > limit && limit > 0) /* text[-0:] is the whole text */
        Py_SETREF(text, PyUnicode_Substring(text, n - limit, n));
done:
    PyMem_Free(out.b);
    PyMem_Free(part.b);
    PyMem_Free(joined.b);
    PyMem_Free(spans.v);
    return text;
}

/* ------------------------------------------------------------------------------------------------ */
/* What an element's own class and id say (idents.py's ident_flags_python), for ASCII class/id strings */

/* The result bits per element, as idents.py numbers them (configure_idents checks them). */
enum { IF_BAD = 1, IF_COMMENT = 2, IF_GOOD = 4, IF_POST = 8, IF_CAPTION = 16, IF_GALLERY = 32 };
/* A class/id word's categories, as idents._word_flags numbers them. */
enum { W_MARKER = 1, W_COMMENT = 2, W_STRONG = 4, W_WEAK = 8, W_GOOD = 16 };

/* A table of ASCII words (heuristics' prefixes or exact words), grouped by first byte: a part is compared
   only with the words that start as it does. */
typedef struct {
    char **s;
    size_t *n;
    Py_ssize_t lo[257]; /* words of first byte b: [lo[b], lo[b + 1]) */
} Words;

static struct {
    int ready;
    Words markers, comment, strong, weak, exact, good, post_markers, post_prefixes, caption, gallery;
    PyObject *python; /* idents.flags_of(cls, id) -> int: the reference, for strings that are not ASCII */
} idt;

static int by_first_byte(const void *a, const void *b) {
    return (int)(unsigned char)(*(char *const *)a)[0] - (int)(unsigned char)(*(char *const *)b)[0];
}

/* Fill `w` from a tuple of non-empty ASCII str; -1 with an exception otherwise. */
static int words_from(PyObject *tuple, Words *w) {
    if (!PyTuple_Check(tuple)) {
        PyErr_SetString(PyExc_TypeError, "word tables must be tuples");
        return -1;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(tuple);
    w->s = PyMem_Calloc((size_t)count + 1, sizeof(char *));
    w->n = PyMem_Calloc((size_t)count + 1, sizeof(size_t));
    if (w->s == NULL || w->n == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *x = PyTuple_GET_ITEM(tuple, i);
        if (!PyUnicode_Check(x) || !PyUnicode_IS_ASCII(x) || PyUnicode_GET_LENGTH(x) == 0) {
            PyErr_SetString(PyExc_ValueError, "table words must be non-empty ASCII str");
            return -1;
        }
        Py_ssize_t n = PyUnicode_GET_LENGTH(x);
        if ((w->s[i] = PyMem_Malloc((size_t)n + 1)) == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(w->s[i], PyUnicode_1BYTE_DATA(x), (size_t)n + 1);
    }
    qsort(w->s, (size_t)count, sizeof(char *), by_first_byte);
    for (Py_ssize_t i = 0; i < count; i++)
        w->n[i] = strlen(w->s[i]);
    Py_ssize_t i = 0;
    for (int b = 0; b <= 256; b++) {
        while (i < count && (int)(unsigned char)w->s[i][0] < b)
            i++;
        w->lo[b] = i;
    }
    return 0;
}

/* Whether the word w->s[i] (whose first byte is p's) is p[0, n): compared inline from the second byte, where
   most candidates differ (memcmp's call was ~20 instructions a candidate, 16 M over the bench's pages). */
static inline int word_at(const char *p, const Words *w, Py_ssize_t i, size_t n) {
    const char *s = w->s[i];
    size_t k = 1;
    while (k < n && s[k] == p[k])
        k++;
    return k == n;
}

static int starts_any(const char *p, size_t m, const Words *w) {
    if (m == 0)
        return 0;
    unsigned char b = (unsigned char)p[0];
    for (Py_ssize_t i = w->lo[b]; i < w->lo[b + 1]; i++)
        if (w->n[i] <= m && word_at(p, w, i, w->n[i]))
            return 1;
    return 0;
}

static int equals_any(const char *p, size_t m, const Words *w) {
    if (m == 0)
        return 0;
    unsigned char b = (unsigned char)p[0];
    for (Py_ssize_t i = w->lo[b]; i < w->lo[b + 1]; i++)
        if (w->n[i] == m && word_at(p, w, i, m))
            return 1;
    return 0;
}

/* "post-" and at least one digit after it, nothing else ("post-157"). */
static int post_number(const char *p, size_t m) {
    if (m <= 5 || memcmp(p, "post-", 5) != 0)
        return 0;
    for (size_t i = 5; i < m; i++)
        if (p[i] < '0' || p[i] > '9')
            return 0;
    return 1;
}

/* The next word of s[*i, n), split at whitespace (and at "_" with `underscore`): 1 with [*start, *end) set,
   0 past the last. */
static int next_word(const char *s, size_t n, size_t *i, int underscore, size_t *start, size_t *end) {
    size_t k = *i;
    while (k < n && (ascii_space[(unsigned char)s[k]] || (underscore && s[k] == '_')))
        k++;
    *start = k;
    while (k < n && !ascii_space[(unsigned char)s[k]] && !(underscore && s[k] == '_'))
        k++;
    *end = *i = k;
    return k > *start;
}

/* idents.classify_ident's flags of lower-cased `s` with "_" read as a space: every word's parts (from its
   start and after each "-") in the order the Python code tests them. W_MARKER decides the whole. */
static int word_flags(const char *s, size_t n) {
    int flags = 0;
    size_t i = 0, start, end;
    while (next_word(s, n, &i, 1, &start, &end)) {
        for (;;) {
            const char *p = s + start;
            size_t m = end - start;
            if (equals_any(p, m, &idt.markers) || post_number(p, m))
                return W_MARKER;
            const char *dash = memchr(p, '-', m);
            if (starts_any(p, m, &idt.comment))
                flags |= W_COMMENT;
            else if (starts_any(p, m, &idt.strong))
                flags |= W_STRONG;
            else if (starts_any(p, m, &idt.weak) || equals_any(p, dash ? (size_t)(dash - p) : m, &idt.exact))
                flags |= W_WEAK;
            else if (starts_any(p, m, &idt.good))
                flags |= W_GOOD;
            if (dash == NULL)
                break;
            start = (size_t)(dash - s) + 1;
        }
    }
    return flags;
}

/* idents.has_part of lower-cased `s` with "_" read as "-" for the post prefixes, the caption prefixes and the
   gallery prefixes at once (one walk over the word parts, from each word's start and after each "-"):
   IF_POST, IF_CAPTION and IF_GALLERY for the tables a part starts with a word of. */
static int part_bits(const char *s, size_t n) {
    int out = 0;
    size_t i = 0, start, end;
    while (next_word(s, n, &i, 0, &start, &end))
        for (;;) {
            const char *p = s + start;
            size_t m = end - start;
            if (starts_any(p, m, &idt.post_prefixes))
                out |= IF_POST;
            if (starts_any(p, m, &idt.caption))
                out |= IF_CAPTION;
            if (starts_any(p, m, &idt.gallery))
                out |= IF_GALLERY;
            const char *dash = memchr(p, '-', m);
            if (dash == NULL)
                break;
            start = (size_t)(dash - s) + 1;
        }
    return out;
}

/* idents.is_post's first half, of lower-cased `s` with "_" read as "-": a word that names one post (the
   second half, a part starting with a post prefix, is part_bits' IF_POST). */
static int post_word(const char *s, size_t n) {
    size_t i = 0, start, end;
    while (next_word(s, n, &i, 0, &start, &end))
        if (equals_any(s + start, end - start, &idt.post_markers) || post_number(s + start, end - start))
            return 1;
    return 0;
}

/* The flags of one element; -1 with an exception. */
static int ident_flags_of(PyObject *cls, PyObject *id, char *buf, size_t cap) {
    Py_ssize_t nc = PyUnicode_GET_LENGTH(cls), ni = PyUnicode_GET_LENGTH(id);
    if (nc == 0 && ni == 0)
        return 0;
    size_t n = (size_t)nc + 1 + (size_t)ni;
    if (!PyUnicode_IS_ASCII(cls) || !PyUnicode_IS_ASCII(id) || n > cap) {
        /* Lower-casing beyond ASCII (and the rare huge attribute): the Python reference. */
        PyObject *r = PyObject_CallFunctionObjArgs(idt.python, cls, id, NULL);
        if (r == NULL)
            return -1;
        long v = PyLong_AsLong(r);
        Py_DECREF(r);
        if (v < 0 || v > 63) { /* every bit of IF_* */
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "flags %ld", v);
            return -1;
        }
        return (int)v;
    }
    const unsigned char *a = PyUnicode_1BYTE_DATA(cls), *b = PyUnicode_1BYTE_DATA(id);
    for (Py_ssize_t k = 0; k < nc; k++)
        buf[k] = (char)(a[k] >= 'A' && a[k] <= 'Z' ? a[k] + 32 : a[k]);
    buf[nc] = ' ';
    for (Py_ssize_t k = 0; k < ni; k++)
        buf[nc + 1 + k] = (char)(b[k] >= 'A' && b[k] <= 'Z' ? b[k] + 32 : b[k]);
    int out = 0;
    int w = word_flags(buf, n);
    if (w & W_MARKER)
        out |= IF_GOOD;
    else if (w & W_COMMENT)
        out |= IF_COMMENT | (w & W_GOOD ? IF_GOOD : 0);
    else
        out |= ((w & W_STRONG) || ((w & W_WEAK) && !(w & W_GOOD)) ? IF_BAD : 0) | (w & W_GOOD ? IF_GOOD : 0);
    for (size_t k = 0; k < n; k++)
        if (buf[k] == '_')
            buf[k] = '-';
    return out | part_bits(buf, n) | (post_word(buf, n) ? IF_POST : 0);
}

PyDoc_STRVAR(ident_flags_doc,
             "ident_flags(classes, ids) -> bytes\n\n"
             "idents.ident_flags_python: per element, the bits of what its class and id say (boilerplate,\n"
             "comment section, content container, one post, a caption).");

enum { IDENT_BUF = 4096 }; /* longer class + id strings go to the Python reference */

/* The flags are a function of the (class, id) pair, and pages repeat pairs (half of a page's non-empty
   pairs are repeats within it: menu items, list entries; and 58% of the distinct pairs of a page were on
   an earlier page of the bench's first 781): each pair of ASCII strings is worked out once and kept in this
   table of the process, by content. When half full it is emptied (a bound on its memory: 1 MB of slots,
   32 bytes each, and the pairs' bytes). */
typedef struct {
    size_t hash;
    char *key; /* the class, then the id (malloc'd); NULL: an empty slot */
    uint32_t nc, ni;
    int flags;
} IdentMemo;

enum { IDENT_MEMO_SLOTS = 1 << 15 };
static IdentMemo *ident_memo;
static size_t ident_memo_used;

static void ident_memo_clear(void) {
    for (size_t k = 0; k < IDENT_MEMO_SLOTS; k++)
        free(ident_memo[k].key);
    memset(ident_memo, 0, IDENT_MEMO_SLOTS * sizeof *ident_memo);
    ident_memo_used = 0;
}

/* The flags of one element with a non-empty class or id, from the table or worked out (and kept when both
   are ASCII); -1 with an exception. */
static int ident_flags_memo(PyObject *cls, PyObject *id, char *buf, size_t cap) {
    Py_ssize_t nc = PyUnicode_GET_LENGTH(cls), ni = PyUnicode_GET_LENGTH(id);
    if (!PyUnicode_IS_ASCII(cls) || !PyUnicode_IS_ASCII(id) || (size_t)nc + 1 + (size_t)ni > cap)
        return ident_flags_of(cls, id, buf, cap);
    const char *a = (const char *)PyUnicode_1BYTE_DATA(cls), *b = (const char *)PyUnicode_1BYTE_DATA(id);
    size_t h = memo_hash(b, (size_t)ni, memo_hash(a, (size_t)nc, (size_t)nc)), k = h & (IDENT_MEMO_SLOTS - 1);
    for (; ident_memo[k].key != NULL; k = (k + 1) & (IDENT_MEMO_SLOTS - 1)) {
        const IdentMemo *e = &ident_memo[k];
        if (e->hash == h && e->nc == (uint32_t)nc && e->ni == (uint32_t)ni && memcmp(e->key, a, (size_t)nc) == 0 &&
            memcmp(e->key + nc, b, (size_t)ni) == 0)
            return e->flags;
    }
    int f = ident_flags_of(cls, id, buf, cap);
    if (f < 0)
        return -1;
    char *key = malloc((size_t)nc + (size_t)ni + 1);
    if (key == NULL)
        return f; /* not kept */
    memcpy(key, a, (size_t)nc);
    memcpy(key + nc, b, (size_t)ni);
    if (ident_memo_used >= IDENT_MEMO_SLOTS / 2) { /* half full: emptied, so a probe ends soon */
        ident_memo_clear();
        k = h & (IDENT_MEMO_SLOTS - 1);
    }
    ident_memo[k] = (IdentMemo){h, key, (uint32_t)nc, (uint32_t)ni, f};
    ident_memo_used++;
    return f;
}

static PyObject *native_ident_flags(PyObject *self, PyObject *args) {
    PyObject *classes, *ids;
    if (!PyArg_ParseTuple(args, "O!O!", &PyList_Type, &classes, &PyList_Type, &ids))
        return NULL;
    if (!idt.ready) {
        PyErr_SetString(PyExc_RuntimeError, "configure_idents first");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(classes);
    if (PyList_GET_SIZE(ids) != n) {
        PyErr_SetString(PyExc_ValueError, "classes and ids differ in length");
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, n);
    if (out == NULL)
        return NULL;
    char *o = PyBytes_AS_STRING(out);
    char buf[IDENT_BUF];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *cls = PyList_GET_ITEM(classes, i), *id = PyList_GET_ITEM(ids, i);
        if (!PyUnicode_CheckExact(cls) || !PyUnicode_CheckExact(id)) {
            PyErr_SetString(PyExc_TypeError, "classes and ids must be str");
            goto fail;
        }
        if (PyUnicode_GET_LENGTH(cls) == 0 && PyUnicode_GET_LENGTH(id) == 0) {
            o[i] = 0;
            continue;
        }
        int f = ident_flags_memo(cls, id, buf, sizeof buf);
        if (f < 0)
            goto fail;
        o[i] = (char)f;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

PyDoc_STRVAR(configure_idents_doc,
             "configure_idents(bits, tables, python)\n\n"
             "Hand over idents.py's result bits (BAD, COMMENT, GOOD, POST, CAPTION, GALLERY), heuristics' 10 word\n"
             "tables (content markers; comment, strong, weak and good prefixes; exact bad words; post markers; post\n"
             "prefixes; caption and gallery prefixes: tuples of ASCII str) and the Python reference flags_of(cls,\n"
             "id) for strings beyond ASCII.");

static PyObject *native_configure_idents(PyObject *self, PyObject *args) {
    PyObject *bits, *tables, *python;
    if (!PyArg_ParseTuple(args, "OO!O", &bits, &PyTuple_Type, &tables, &python))
        return NULL;
    if (PyTuple_GET_SIZE(tables) != 10)
        return PyErr_Format(PyExc_ValueError, "10 word tables expected, got %zd", PyTuple_GET_SIZE(tables));
    if (idt.ready) {
        PyErr_SetString(PyExc_RuntimeError, "worker.clean._native idents are configured once");
        return NULL;
    }
    long want[6] = {IF_BAD, IF_COMMENT, IF_GOOD, IF_POST, IF_CAPTION, IF_GALLERY};
    if (!PyTuple_Check(bits) || PyTuple_GET_SIZE(bits) != 6)
        return PyErr_Format(PyExc_ValueError, "bits must be a tuple of 6");
    for (int k = 0; k < 6; k++)
        if (PyLong_AsLong(PyTuple_GET_ITEM(bits, k)) != want[k])
            return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_ValueError, "bit %d is not %ld", k, want[k]);
    Words *dest[10] = {&idt.markers, &idt.comment,      &idt.strong,        &idt.weak,    &idt.exact,
                       &idt.good,    &idt.post_markers, &idt.post_prefixes, &idt.caption, &idt.gallery};
    for (int k = 0; k < 10; k++)
        if (words_from(PyTuple_GET_ITEM(tables, k), dest[k]) < 0)
            return NULL;
    if ((ident_memo = calloc(IDENT_MEMO_SLOTS, sizeof *ident_memo)) == NULL)
        return PyErr_NoMemory();
    idt.python = Py_NewRef(python);
    idt.ready = 1;
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------------------------------ */
/* Word counts of block texts: quality.count_python and lang.stop_hits_python in one pass per text      */

/* The float sum of Python's sum() on this interpreter: plain addition in order before 3.12, Neumaier's
   compensated summation from 3.12 on (bltinmodule.c). Both start from the first item, as sum(..., 0) does
   once its int start meets a float. */
typedef struct {
    double s, c;
    int any;
} PySum;

static void pysum_add(PySum *a, double x) {
    if (!a->any) {
        a->s = x;
        a->any = 1;
        return;
    }
#if PY_VERSION_HEX >= 0x030C0000
    double t = a->s + x;
    if (fabs(a->s) >= fabs(x))
        a->c += (a->s - t) + x;
    else
        a->c += (x - t) + a->s;
    a->s = t;
#else
    a->s += x;
#endif
}

static PyObject *pysum_result(const PySum *a) {
    if (!a->any)
        return PyLong_FromLong(0); /* sum() of nothing is the int start */
    double s = a->s;
#if PY_VERSION_HEX >= 0x030C0000
    if (a->c && isfinite(a->c))
        s += a->c;
#endif
    return PyFloat_FromDouble(s);
}

/* What quality._mark makes of a code point: digits and symbols are counted and cut tokens, apostrophes
   are counted as symbols but stay in tokens (as "'"). The marks themselves (U+0001-U+0003) read as what
   they mark, as in the Python code. */
enum { C_OTHER = 0, C_DIGIT = 1, C_SYMBOL = 2, C_APOSTROPHE = 3, C_SPACE = 4 };
/* Classes are read from a table below this code point (Latin, Greek, Cyrillic, the general punctuation and
   currency blocks: 12 KB), searched above it. */
#define TABLED_CHARS 0x3000

static struct {
    int ready;
    unsigned char ascii[128];
    unsigned char below[TABLED_CHARS]; /* the class of every code point below TABLED_CHARS */
    Py_UCS4 *wide;       /* non-ASCII symbols, sorted */
    Py_ssize_t nwide;
    Py_UCS4 *wide_apos;  /* non-ASCII apostrophes, sorted */
    Py_ssize_t nwide_apos;
    Py_UCS4 *line_end;   /* the characters a punctuated line ends with */
    Py_ssize_t nline_end;
    PyObject *lower;     /* "lower", interned */
} tok;

static int in_sorted(const Py_UCS4 *a, Py_ssize_t n, Py_UCS4 c) {
    Py_ssize_t lo = 0, hi = n;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (a[mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && a[lo] == c;
}

static int wide_class(Py_UCS4 c) {
    if (Py_UNICODE_ISSPACE(c))
        return C_SPACE;
    if (in_sorted(tok.wide_apos, tok.nwide_apos, c))
        return C_APOSTROPHE;
    if (in_sorted(tok.wide, tok.nwide, c))
        return C_SYMBOL;
    return C_OTHER;
}

static inline int char_class(Py_UCS4 c) { return c < TABLED_CHARS ? tok.below[c] : wide_class(c); }

static int cmp_ucs4(const void *a, const void *b) {
    Py_UCS4 x = *(const Py_UCS4 *)a, y = *(const Py_UCS4 *)b;
    return (x > y) - (x < y);
}

/* The code points of `s` (a str), sorted, in a new array; -1 with an exception. */
static Py_ssize_t sorted_chars(PyObject *s, Py_UCS4 **out) {
    if (!PyUnicode_Check(s)) {
        PyErr_SetString(PyExc_TypeError, "character sets must be str");
        return -1;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    *out = PyMem_Calloc((size_t)n + 1, sizeof(Py_UCS4));
    if (*out == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        (*out)[i] = PyUnicode_READ_CHAR(s, i);
    qsort(*out, (size_t)n, sizeof(Py_UCS4), cmp_ucs4);
    return n;
}

PyDoc_STRVAR(configure_tokens_doc,
             "configure_tokens(digits, symbols, apostrophes, marks, line_end)\n\n"
             "Hand over quality.py's character classes: the digits (ASCII), the symbols and apostrophes (an\n"
             "apostrophe is both), the three mark characters (digit, symbol, apostrophe) and the characters\n"
             "a punctuated line ends with.");

static PyObject *native_configure_tokens(PyObject *self, PyObject *args) {
    PyObject *digits, *symbols, *apostrophes, *marks, *line_end;
    if (!PyArg_ParseTuple(args, "UUUUU", &digits, &symbols, &apostrophes, &marks, &line_end))
        return NULL;
    if (tok.ready) {
        PyErr_SetString(PyExc_RuntimeError, "worker.clean._native tokens are configured once");
        return NULL;
    }
    if (PyUnicode_GET_LENGTH(marks) != 3)
        return PyErr_Format(PyExc_ValueError, "three marks expected");
    for (Py_UCS4 c = 0; c < 128; c++)
        tok.ascii[c] = ascii_space[c] ? C_SPACE : C_OTHER;
    Py_UCS4 *sym, *apo;
    Py_ssize_t nsym = sorted_chars(symbols, &sym), napo = nsym < 0 ? -1 : sorted_chars(apostrophes, &apo);
    if (napo < 0)
        return NULL;
    for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(digits); i++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(digits, i);
        if (c >= 128)
            return PyErr_Format(PyExc_ValueError, "digits must be ASCII");
        tok.ascii[c] = C_DIGIT;
    }
    Py_ssize_t nwide = 0, nwide_apos = 0;
    for (Py_ssize_t i = 0; i < nsym; i++)
        if (sym[i] < 128)
            tok.ascii[sym[i]] = C_SYMBOL;
        else if (!in_sorted(apo, napo, sym[i]))
            sym[nwide++] = sym[i];
    for (Py_ssize_t i = 0; i < napo; i++)
        if (apo[i] < 128)
            tok.ascii[apo[i]] = C_APOSTROPHE;
        else
            apo[nwide_apos++] = apo[i];
    for (int k = 0; k < 3; k++) {
        Py_UCS4 m = PyUnicode_READ_CHAR(marks, k);
        if (m >= 128 || ascii_space[m])
            return PyErr_Format(PyExc_ValueError, "marks must be ASCII and not spaces");
        tok.ascii[m] = (unsigned char)(C_DIGIT + k);
    }
    if (tok.lower == NULL && (tok.lower = PyUnicode_InternFromString("lower")) == NULL)
        return NULL;
    tok.wide = sym;
    tok.nwide = nwide;
    tok.wide_apos = apo;
    tok.nwide_apos = nwide_apos;
    if ((tok.nline_end = sorted_chars(line_end, &tok.line_end)) < 0)
        return NULL;
    for (Py_UCS4 c = 0; c < TABLED_CHARS; c++)
        tok.below[c] = (unsigned char)(c < 128 ? tok.ascii[c] : wide_class(c));
    tok.ready = 1;
    Py_RETURN_NONE;
}

/* text.lower() as the word readers need it: the text itself (a new reference) when lower() changes none of
   its characters but ASCII letters, which the readers lower-case as they read (most texts: ASCII ones, and
   those whose other characters are punctuation, spaces or lower-case letters). A character lower() maps
   to something else has a simple lower-case mapping of its own (Py_UNICODE_TOLOWER); U+0130 (two code
   points in lower case) and capital sigma (whose mapping depends on its neighbours) have one too. */
SPECIALISED int lower_changes(int kind, const void *data, Py_ssize_t len) {
    for (Py_ssize_t j = 0; j < len; j++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, j);
        if (c >= 128 && Py_UNICODE_TOLOWER(c) != c)
            return 1;
    }
    return 0;
}

static PyObject *folded(PyObject *text) {
    int changes = 0;
    if (!PyUnicode_IS_ASCII(text))
        BY_KIND(changes, text, lower_changes, PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text));
    return changes ? PyObject_CallMethodNoArgs(text, tok.lower) : Py_NewRef(text);
}

/* FNV-1a over code points: the hash of the C tables of words. */
static inline uint64_t fnv_step(uint64_t h, Py_UCS4 c) { return (h ^ (uint64_t)c) * 1099511628211ULL; }
#define FNV_START 14695981039346656037ULL

/* A language's stoplist and Zipf dict as one open-addressing table of code-point strings: a token is looked
   up where it stands in the text, without a str object, a set lookup and a dict lookup per token. A table
   is built the first time its (stoplist, zipf) pair is given and kept for the process, like the stoplist
   table of stop_hits (the pairs are lang's stoplists and wordmodel's tables, constants after their first
   read: a few languages). A pair given again at another size is read anew; one changed in place at the
   same size would go unnoticed. */
typedef struct {
    double zipf;    /* 0.0 when the dict lacks it: what zipf.get(token, 0.0) adds */
    uint32_t hash;  /* the low half of the token's hash (a match is confirmed on the code points) */
    uint32_t len;   /* code points; 0 marks an empty slot (an empty token never occurs) */
    uint32_t at;    /* where its code points start in the table's chars */
    uint8_t stop;   /* in the stoplist */
} WordEntry;        /* 24 bytes: a language's ~30,000 words take ~1.5 MB of slots and ~1 MB of code points */

typedef struct {
    PyObject *stoplist, *zipf; /* the objects the table was read from (strong references; None allowed) */
    Py_ssize_t nstop, nzipf;   /* their sizes then */
    size_t mask;
    WordEntry *slots;
    Py_UCS4 *chars;
} WordTable;

/* More pairs than this means tables are not constants: they are all dropped and read anew. */
#define MAX_WORD_TABLES 32
static WordTable word_tables[MAX_WORD_TABLES];
static int nword_tables;

static void word_table_clear(WordTable *t) {
    PyMem_Free(t->slots);
    PyMem_Free(t->chars);
    Py_CLEAR(t->stoplist);
    Py_CLEAR(t->zipf);
    memset(t, 0, sizeof(*t));
}

static Py_ssize_t set_or_dict_size(PyObject *o) {
    return o == Py_None ? 0 : PyDict_Check(o) ? PyDict_GET_SIZE(o) : PySet_GET_SIZE(o);
}

/* The entry for `key`, inserted (zero-filled) if absent; NULL with an exception for a key that is no str. */
static WordEntry *word_slot(WordTable *t, PyObject *key, Py_ssize_t *used) {
    if (!PyUnicode_Check(key)) {
        PyErr_SetString(PyExc_TypeError, "stoplist and zipf keys must be str");
        return NULL;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(key);
    int kind = PyUnicode_KIND(key);
    const void *data = PyUnicode_DATA(key);
    uint64_t h = FNV_START;
    for (Py_ssize_t j = 0; j < len; j++)
        h = fnv_step(h, PyUnicode_READ(kind, data, j));
    size_t i = (size_t)h & t->mask;
    for (; t->slots[i].len != 0; i = (i + 1) & t->mask) {
        WordEntry *e = &t->slots[i];
        if (e->hash != (uint32_t)h || (Py_ssize_t)e->len != len)
            continue;
        Py_ssize_t j = 0;
        while (j < len && t->chars[e->at + j] == PyUnicode_READ(kind, data, j))
            j++;
        if (j == len)
            return e;
    }
    WordEntry *e = &t->slots[i];
    e->hash = (uint32_t)h;
    e->len = (uint32_t)len;
    e->at = (uint32_t)*used;
    for (Py_ssize_t j = 0; j < len; j++)
        t->chars[*used + j] = PyUnicode_READ(kind, data, j);
    *used += len;
    return e;
}

/* Read the pair into `t`; -1 with an exception. Empty keys are left out: a token is never empty. */
static int word_table_build(WordTable *t, PyObject *stoplist, PyObject *zipf) {
    Py_ssize_t n = set_or_dict_size(stoplist) + set_or_dict_size(zipf), nchars = 0, used = 0, pos = 0;
    PyObject *key, *value;
    /* the stoplist's words as a list: sets have no public way to walk them without an iterator */
    PyObject *stops_list = stoplist == Py_None ? PyList_New(0) : PySequence_List(stoplist);
    if (stops_list == NULL)
        return -1;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(stops_list); k++) {
        key = PyList_GET_ITEM(stops_list, k);
        nchars += PyUnicode_Check(key) ? PyUnicode_GET_LENGTH(key) : 0;
    }
    if (zipf != Py_None)
        while (PyDict_Next(zipf, &pos, &key, &value))
            nchars += PyUnicode_Check(key) ? PyUnicode_GET_LENGTH(key) : 0;
    if (nchars >= (Py_ssize_t)UINT32_MAX) {
        Py_DECREF(stops_list);
        PyErr_SetString(PyExc_OverflowError, "word tables hold up to 2**32 code points");
        return -1;
    }
    size_t cap = 16;
    while (cap < (size_t)n * 2 + 1)
        cap *= 2;
    t->slots = PyMem_Calloc(cap, sizeof(WordEntry));
    t->chars = PyMem_Malloc(((size_t)nchars + 1) * sizeof(Py_UCS4));
    if (t->slots == NULL || t->chars == NULL) {
        Py_DECREF(stops_list);
        PyErr_NoMemory();
        return -1;
    }
    t->mask = cap - 1;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(stops_list); k++) {
        key = PyList_GET_ITEM(stops_list, k);
        if (PyUnicode_Check(key) && PyUnicode_GET_LENGTH(key) == 0)
            continue;
        WordEntry *e = word_slot(t, key, &used);
        if (e == NULL) {
            Py_DECREF(stops_list);
            return -1;
        }
        e->stop = 1;
    }
    Py_DECREF(stops_list);
    pos = 0;
    if (zipf != Py_None)
        while (PyDict_Next(zipf, &pos, &key, &value)) {
            if (PyUnicode_Check(key) && PyUnicode_GET_LENGTH(key) == 0)
                continue;
            if (!PyFloat_CheckExact(value)) {
                PyErr_SetString(PyExc_TypeError, "zipf values must be float");
                return -1;
            }
            WordEntry *e = word_slot(t, key, &used);
            if (e == NULL)
                return -1;
            e->zipf = PyFloat_AS_DOUBLE(value);
        }
    t->stoplist = Py_NewRef(stoplist);
    t->zipf = Py_NewRef(zipf);
    t->nstop = set_or_dict_size(stoplist);
    t->nzipf = set_or_dict_size(zipf);
    return 0;
}

/* The table of the pair (built on first use); NULL with an exception. */
static const WordTable *word_table(PyObject *stoplist, PyObject *zipf) {
    for (int k = 0; k < nword_tables; k++) {
        WordTable *t = &word_tables[k];
        if (t->stoplist == stoplist && t->zipf == zipf) {
            if (t->nstop == set_or_dict_size(stoplist) && t->nzipf == set_or_dict_size(zipf))
                return t;
            word_table_clear(t);
            if (word_table_build(t, stoplist, zipf) < 0) {
                word_table_clear(t);
                return NULL;
            }
            return t;
        }
    }
    if (nword_tables == MAX_WORD_TABLES) {
        for (int k = 0; k < nword_tables; k++)
            word_table_clear(&word_tables[k]);
        nword_tables = 0;
    }
    WordTable *t = &word_tables[nword_tables];
    if (word_table_build(t, stoplist, zipf) < 0) {
        word_table_clear(t);
        return NULL;
    }
    nword_tables++;
    return t;
}

/* A token character of a folded text as the tables spell it: ASCII letters lower-cased, apostrophes as "'". */
static inline Py_UCS4 word_char(Py_UCS4 c, int cls) {
    return cls == C_APOSTROPHE ? '\'' : (Py_UCS4)ascii_lower((int)c);
}

/* The entry of the token text[start:end] with hash h, or NULL. */
SPECIALISED const WordEntry *word_find(const WordTable *t, int kind, const void *data, Py_ssize_t start,
                                       Py_ssize_t end, uint64_t h) {
    Py_ssize_t len = end - start;
    for (size_t i = (size_t)h & t->mask; t->slots[i].len != 0; i = (i + 1) & t->mask) {
        const WordEntry *e = &t->slots[i];
        if (e->hash != (uint32_t)h || (Py_ssize_t)e->len != len)
            continue;
        const Py_UCS4 *w = t->chars + e->at;
        Py_ssize_t j = 0;
        for (; j < len; j++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, start + j);
            if (w[j] != word_char(c, char_class(c)))
                break;
        }
        if (j == len)
            return e;
    }
    return NULL;
}

typedef struct {
    long digits, symbols, tokens, stops;
    PySum zipf;
} WordCounts;

SPECIALISED Py_ssize_t count_spaces(int kind, const void *data, Py_ssize_t len) {
    Py_ssize_t spaces = 0;
    for (Py_ssize_t j = 0; j < len; j++)
        spaces += PyUnicode_READ(kind, data, j) == ' ';
    return spaces;
}

/* quality_counts' pass over one folded text: digits, symbols, tokens, and with a table each token's
   stoplist hit and Zipf value (summed when `zipf`), looked up where the token stands. */
SPECIALISED WordCounts count_words(int kind, const void *data, Py_ssize_t len, const WordTable *words,
                                   int zipf) {
    WordCounts out = {0, 0, 0, 0, {0.0, 0.0, 0}};
    Py_ssize_t start = -1;
    uint64_t h = FNV_START;
    for (Py_ssize_t j = 0; j <= len; j++) {
        Py_UCS4 c = j < len ? PyUnicode_READ(kind, data, j) : ' ';
        int cls = j < len ? char_class(c) : C_SPACE;
        if (cls == C_DIGIT)
            out.digits++;
        else if (cls == C_SYMBOL || cls == C_APOSTROPHE)
            out.symbols++;
        if (cls == C_OTHER || cls == C_APOSTROPHE) {
            if (start < 0) {
                start = j;
                h = FNV_START;
            }
            h = fnv_step(h, word_char(c, cls));
            continue;
        }
        if (start < 0)
            continue;
        out.tokens++;
        if (words != NULL) {
            const WordEntry *e = word_find(words, kind, data, start, j, h);
            out.stops += e != NULL && e->stop;
            if (zipf)
                pysum_add(&out.zipf, e != NULL ? e->zipf : 0.0);
        }
        start = -1;
    }
    return out;
}

static int list_set_long(PyObject *list, Py_ssize_t i, long v) {
    PyObject *x = int_of((Py_ssize_t)v);
    if (x == NULL)
        return -1;
    PyList_SET_ITEM(list, i, x);
    return 0;
}

PyDoc_STRVAR(quality_counts_doc,
             "quality_counts(texts, stoplist, zipf) -> (words, nonspace, symbols, digits, tokens, stopwords,\n"
             "                                         punctuated, zipf_sums)\n\n"
             "quality.count_python's columns for whitespace-folded texts; stopwords (zipf_sums) is None when\n"
             "stoplist (zipf) is.");

static PyObject *native_quality_counts(PyObject *self, PyObject *args) {
    PyObject *texts, *stoplist, *zipf;
    if (!PyArg_ParseTuple(args, "O!OO", &PyList_Type, &texts, &stoplist, &zipf))
        return NULL;
    if (!tok.ready) {
        PyErr_SetString(PyExc_RuntimeError, "configure_tokens first");
        return NULL;
    }
    if ((stoplist != Py_None && !PyAnySet_Check(stoplist)) || (zipf != Py_None && !PyDict_Check(zipf))) {
        PyErr_SetString(PyExc_TypeError, "stoplist must be a set and zipf a dict, or None");
        return NULL;
    }
    int tokens_needed = stoplist != Py_None || zipf != Py_None;
    const WordTable *words = tokens_needed ? word_table(stoplist, zipf) : NULL;
    if (tokens_needed && words == NULL)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(texts);
    PyObject *cols[8] = {NULL};
    PyObject *result = NULL;
    for (int k = 0; k < 8; k++) {
        if ((k == 5 && stoplist == Py_None) || (k == 7 && zipf == Py_None)) {
            cols[k] = Py_NewRef(Py_None);
            continue;
        }
        if ((cols[k] = PyList_New(n)) == NULL)
            goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *text = PyList_GET_ITEM(texts, i);
        if (!PyUnicode_CheckExact(text)) {
            PyErr_SetString(PyExc_TypeError, "texts must be str");
            goto done;
        }
        Py_ssize_t len = PyUnicode_GET_LENGTH(text), spaces;
        BY_KIND(spaces, text, count_spaces, PyUnicode_DATA(text), len);
        Py_UCS4 last = len ? PyUnicode_READ_CHAR(text, len - 1) : 0;
        int punctuated = len && in_sorted(tok.line_end, tok.nline_end, last);
        PyObject *low = folded(text);
        if (low == NULL)
            goto done;
        WordCounts wc;
        BY_KIND(wc, low, count_words, PyUnicode_DATA(low), PyUnicode_GET_LENGTH(low), words, zipf != Py_None);
        Py_DECREF(low);
        if (list_set_long(cols[0], i, spaces + 1) < 0 || list_set_long(cols[1], i, len - spaces) < 0 ||
            list_set_long(cols[2], i, wc.symbols) < 0 || list_set_long(cols[3], i, wc.digits) < 0 ||
            list_set_long(cols[4], i, tokens_needed ? wc.tokens : 0) < 0)
            goto done;
        if (stoplist != Py_None && list_set_long(cols[5], i, wc.stops) < 0)
            goto done;
        PyList_SET_ITEM(cols[6], i, Py_NewRef(punctuated ? Py_True : Py_False));
        if (zipf != Py_None) {
            PyObject *z = pysum_result(&wc.zipf);
            if (z == NULL)
                goto done;
            PyList_SET_ITEM(cols[7], i, z);
        }
    }
    result = PyTuple_New(8);
    if (result != NULL)
        for (int k = 0; k < 8; k++) {
            PyTuple_SET_ITEM(result, k, cols[k]);
            cols[k] = NULL;
        }
done:
    for (int k = 0; k < 8; k++)
        Py_XDECREF(cols[k]);
    return result;
}

/* quality.per_text in C: each text's Quality, its slots filled directly (the frozen dataclass's __init__
   sets each field through object.__setattr__: two thirds of the quality stage's Python time). */
static struct {
    PyTypeObject *cls;            /* models.Quality (a strong reference) */
    Py_ssize_t offsets[7];        /* where each field's slot is, in field order */
    const char *names[7];         /* and its name */
} qual;

PyDoc_STRVAR(configure_quality_doc,
             "configure_quality(cls, members)\n\n"
             "Hand over models.Quality and its seven slot descriptors, in field order.");

static PyObject *native_configure_quality(PyObject *self, PyObject *args) {
    PyObject *cls, *members;
    if (!PyArg_ParseTuple(args, "O!O!", &PyType_Type, &cls, &PyTuple_Type, &members))
        return NULL;
    if (PyTuple_GET_SIZE(members) != 7)
        return PyErr_Format(PyExc_ValueError, "seven members expected");
    for (Py_ssize_t k = 0; k < 7; k++) {
        PyObject *d = PyTuple_GET_ITEM(members, k);
        if (!PyObject_TypeCheck(d, &PyMemberDescr_Type) || PyDescr_TYPE(d) != (PyTypeObject *)cls)
            return PyErr_Format(PyExc_TypeError, "member %zd is no slot of the class", k);
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type != T_OBJECT_EX || (m->flags & READONLY))
            return PyErr_Format(PyExc_TypeError, "member %zd is no object slot", k);
        qual.offsets[k] = m->offset;
        qual.names[k] = m->name;
    }
    Py_XSETREF(qual.cls, (PyTypeObject *)Py_NewRef(cls));
    Py_RETURN_NONE;
}

/* part / whole as Python's true division of two ints or a float and an int gives it (both exact in a
   double: counts of characters), 0.0 when whole is 0 (quality._ratio). */
static PyObject *float_ratio(double part, long whole) {
    return PyFloat_FromDouble(whole ? part / (double)whole : 0.0);
}

/* The number in `column` at i as a double (an int or a float); -1 with an exception. */
static int number_at(PyObject *column, Py_ssize_t i, double *out) {
    *out = PyFloat_AsDouble(PyList_GET_ITEM(column, i));
    return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

PyDoc_STRVAR(qualities_doc,
             "qualities(words, nonspace, symbols, digits, tokens, stopwords, punctuated, zipf_sums) -> list\n\n"
             "quality.per_text_python on Counts' columns (stopwords and zipf_sums may be None).");

static PyObject *native_qualities(PyObject *self, PyObject *args) {
    PyObject *col[8];
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!OO!O", &PyList_Type, &col[0], &PyList_Type, &col[1], &PyList_Type,
                          &col[2], &PyList_Type, &col[3], &PyList_Type, &col[4], &col[5], &PyList_Type, &col[6],
                          &col[7]))
        return NULL;
    if (qual.cls == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "configure_quality first");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(col[0]);
    for (int k = 0; k < 8; k++)
        if ((k == 5 || k == 7) && col[k] == Py_None)
            continue;
        else if (!PyList_Check(col[k]) || PyList_GET_SIZE(col[k]) != n)
            return PyErr_Format(PyExc_ValueError, "column %d is no list of %zd", k, n);
    PyObject *out = PyList_New(n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        long w = PyLong_AsLong(PyList_GET_ITEM(col[0], i)), ns = PyLong_AsLong(PyList_GET_ITEM(col[1], i));
        long sym = PyLong_AsLong(PyList_GET_ITEM(col[2], i)), dig = PyLong_AsLong(PyList_GET_ITEM(col[3], i));
        long tokens = PyLong_AsLong(PyList_GET_ITEM(col[4], i));
        if (PyErr_Occurred())
            goto fail;
        if (w == 0) {
            PyErr_SetString(PyExc_ZeroDivisionError, "division by zero");
            goto fail;
        }
        int punctuated = PyObject_IsTrue(PyList_GET_ITEM(col[6], i));
        double stops = 0.0, zipf = 0.0;
        if (punctuated < 0 || (col[5] != Py_None && number_at(col[5], i, &stops) < 0) ||
            (col[7] != Py_None && number_at(col[7], i, &zipf) < 0))
            goto fail;
        PyObject *fields[7] = {
            Py_NewRef(PyList_GET_ITEM(col[0], i)),
            PyFloat_FromDouble((double)ns / (double)w),
            float_ratio((double)sym, ns),
            float_ratio((double)dig, ns),
            col[5] == Py_None ? Py_NewRef(Py_None) : float_ratio(stops, tokens),
            PyFloat_FromDouble(punctuated ? 1.0 : 0.0),
            col[7] == Py_None ? Py_NewRef(Py_None) : float_ratio(zipf, tokens),
        };
        PyObject *q = qual.cls->tp_alloc(qual.cls, 0);
        int made = q != NULL;
        for (int k = 0; k < 7; k++)
            made = made && fields[k] != NULL;
        if (!made) {
            for (int k = 0; k < 7; k++)
                Py_XDECREF(fields[k]);
            Py_XDECREF(q);
            goto fail;
        }
        for (int k = 0; k < 7; k++)
            *(PyObject **)((char *)q + qual.offsets[k]) = fields[k];
        PyList_SET_ITEM(out, i, q);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* Instances of a slotted class (a frozen dataclass of worker.models) made in C, their slots filled directly:
   the dataclass's __init__ sets each field through object.__setattr__ (~0.55 us a Block, 26 Blocks a page). */
enum { INSTANCE_FIELDS_MAX = 32 };

/* Where each of `members` (member descriptors of `type`'s object slots, at most INSTANCE_FIELDS_MAX) keeps its
   value in an instance, into `offsets`; -1 with an exception set when one is not such a slot. */
static int slot_offsets(PyTypeObject *type, PyObject *members, Py_ssize_t *offsets) {
    Py_ssize_t m = PyTuple_GET_SIZE(members);
    if (m == 0 || m > INSTANCE_FIELDS_MAX) {
        PyErr_Format(PyExc_ValueError, "1 to %d members expected", (int)INSTANCE_FIELDS_MAX);
        return -1;
    }
    for (Py_ssize_t k = 0; k < m; k++) {
        PyObject *d = PyTuple_GET_ITEM(members, k);
        if (!PyObject_TypeCheck(d, &PyMemberDescr_Type) || PyDescr_TYPE(d) != type) {
            PyErr_Format(PyExc_TypeError, "member %zd is no slot of the class", k);
            return -1;
        }
        PyMemberDef *def = ((PyMemberDescrObject *)d)->d_member;
        if (def->type != T_OBJECT_EX || (def->flags & READONLY)) {
            PyErr_Format(PyExc_TypeError, "member %zd is no object slot", k);
            return -1;
        }
        offsets[k] = def->offset;
    }
    return 0;
}

PyDoc_STRVAR(instances_doc,
             "instances(cls, members, columns) -> list\n\n"
             "[cls(*row) for row in zip(*columns, strict=True)] for a class whose fields are exactly the object\n"
             "slots `members` (its member descriptors, in field order) and whose __init__ only sets them.");

static PyObject *native_instances(PyObject *self, PyObject *args) {
    PyObject *cls, *members, *columns;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyType_Type, &cls, &PyTuple_Type, &members, &PyTuple_Type, &columns))
        return NULL;
    Py_ssize_t m = PyTuple_GET_SIZE(members), offsets[INSTANCE_FIELDS_MAX];
    if (slot_offsets((PyTypeObject *)cls, members, offsets) < 0)
        return NULL;
    if (PyTuple_GET_SIZE(columns) != m)
        return PyErr_Format(PyExc_ValueError, "a column per member expected");
    Py_ssize_t n = -1;
    for (Py_ssize_t k = 0; k < m; k++) {
        PyObject *col = PyTuple_GET_ITEM(columns, k);
        if (!PyList_Check(col))
            return PyErr_Format(PyExc_TypeError, "column %zd is no list", k);
        if (n >= 0 && PyList_GET_SIZE(col) != n)
            return PyErr_Format(PyExc_ValueError, "columns differ in length");
        n = PyList_GET_SIZE(col);
    }
    PyTypeObject *type = (PyTypeObject *)cls;
    PyObject *out = PyList_New(n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *obj = type->tp_alloc(type, 0);
        if (obj == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        for (Py_ssize_t k = 0; k < m; k++)
            *(PyObject **)((char *)obj + offsets[k]) = Py_NewRef(PyList_GET_ITEM(PyTuple_GET_ITEM(columns, k), i));
        PyList_SET_ITEM(out, i, obj);
    }
    return out;
}

PyDoc_STRVAR(instance_doc,
             "instance(cls, members, defaults, *values, **named) -> cls\n\n"
             "cls(*values, **named) for a class whose fields are exactly the object slots `members` (its member\n"
             "descriptors, in field order) and whose __init__ only sets them; `defaults` holds each field's\n"
             "default, or `members` itself for a field without one (which must then be given).");

static PyObject *native_instance(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    if (nargs < 3 || !PyType_Check(args[0]) || !PyTuple_Check(args[1]) || !PyTuple_Check(args[2]))
        return PyErr_Format(PyExc_TypeError, "instance(cls, members, defaults, *values, **named) expected");
    PyTypeObject *type = (PyTypeObject *)args[0];
    PyObject *members = args[1], *defaults = args[2];
    Py_ssize_t m = PyTuple_GET_SIZE(members), given = nargs - 3;
    Py_ssize_t named = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames), offsets[INSTANCE_FIELDS_MAX];
    PyObject *values[INSTANCE_FIELDS_MAX] = {NULL};
    if (slot_offsets(type, members, offsets) < 0)
        return NULL;
    if (PyTuple_GET_SIZE(defaults) != m || given > m)
        return PyErr_Format(PyExc_TypeError, "%zd values for %zd members", given, m);
    for (Py_ssize_t k = 0; k < given; k++)
        values[k] = args[3 + k];
    for (Py_ssize_t j = 0; j < named; j++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, j);
        Py_ssize_t k = 0;
        while (k < m && PyDescr_NAME(PyTuple_GET_ITEM(members, k)) != name) /* interned names: pointers */
            k++;
        if (k == m) /* a name made at run time: compared */
            for (k = 0; k < m && PyUnicode_Compare(PyDescr_NAME(PyTuple_GET_ITEM(members, k)), name) != 0; k++)
                ;
        if (k == m)
            return PyErr_Format(PyExc_TypeError, "%s has no field %R", type->tp_name, name);
        if (values[k] != NULL)
            return PyErr_Format(PyExc_TypeError, "%s: field %R given twice", type->tp_name, name);
        values[k] = args[nargs + j];
    }
    for (Py_ssize_t k = 0; k < m; k++)
        if (values[k] == NULL) {
            values[k] = PyTuple_GET_ITEM(defaults, k);
            if (values[k] == members)
                return PyErr_Format(PyExc_TypeError, "%s: field %R not given", type->tp_name,
                                    PyDescr_NAME(PyTuple_GET_ITEM(members, k)));
        }
    PyObject *obj = type->tp_alloc(type, 0);
    if (obj == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < m; k++)
        *(PyObject **)((char *)obj + offsets[k]) = Py_NewRef(values[k]);
    return obj;
}

/* render.quality_dict in C: a Quality's fields by name, the ratios rounded as render._rounded rounds them
   (scaled, rounded half to even as Python's round() does, scaled back; near a half, and for values that
   are no float, the Python function decides). Six roundings and a dict per block of every document. */
static struct {
    PyObject *names[7]; /* the fields' names, in field order */
    double scale, scaled_max, tolerance;
    PyObject *python;   /* render._rounded */
} qd;

PyDoc_STRVAR(configure_quality_dict_doc,
             "configure_quality_dict(scale, scaled_max, tolerance, rounded)\n\n"
             "Hand over render._rounded's constants and the function itself (configure_quality first).");

static PyObject *native_configure_quality_dict(PyObject *self, PyObject *args) {
    double scale, scaled_max, tolerance;
    PyObject *python;
    if (!PyArg_ParseTuple(args, "dddO", &scale, &scaled_max, &tolerance, &python))
        return NULL;
    if (qual.cls == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "configure_quality first");
        return NULL;
    }
    for (int k = 0; k < 7; k++) {
        PyObject *name = PyUnicode_InternFromString(qual.names[k]);
        if (name == NULL)
            return NULL;
        Py_XSETREF(qd.names[k], name);
    }
    qd.scale = scale;
    qd.scaled_max = scaled_max;
    qd.tolerance = tolerance;
    Py_XSETREF(qd.python, Py_NewRef(python));
    Py_RETURN_NONE;
}

/* render._rounded(value): a new reference, or NULL. */
static PyObject *quality_rounded(PyObject *value) {
    if (PyFloat_CheckExact(value)) {
        double v = PyFloat_AS_DOUBLE(value), scaled = v * qd.scale;
        if (-qd.scaled_max < scaled && scaled < qd.scaled_max) {
            double whole = round(scaled); /* float.__round__ without digits: half away from zero, then even */
            if (fabs(scaled - whole) == 0.5)
                whole = 2.0 * round(scaled / 2.0);
            if (fabs(fabs(scaled - whole) - 0.5) > qd.tolerance)
                return PyFloat_FromDouble(whole != 0.0 ? whole / qd.scale : 0.0 * v);
        }
    }
    return PyObject_CallOneArg(qd.python, value);
}

PyDoc_STRVAR(quality_dict_doc, "quality_dict(q) -> dict\n\nrender.quality_dict_python(q).");

static PyObject *native_quality_dict(PyObject *self, PyObject *q) {
    if (qd.python == NULL || !Py_IS_TYPE(q, qual.cls)) {
        PyErr_SetString(PyExc_TypeError, "a Quality expected (configure_quality_dict first)");
        return NULL;
    }
    PyObject *d = PyDict_New();
    if (d == NULL)
        return NULL;
    for (int k = 0; k < 7; k++) {
        PyObject *v = *(PyObject **)((char *)q + qual.offsets[k]);
        if (v == NULL) {
            Py_DECREF(d);
            return PyErr_Format(PyExc_AttributeError, "%s", qual.names[k]);
        }
        /* words as it is; the ratios rounded; None stays None */
        PyObject *out = k == 0 || v == Py_None ? Py_NewRef(v) : quality_rounded(v);
        if (out == NULL || PyDict_SetItem(d, qd.names[k], out) < 0) {
            Py_XDECREF(out);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(out);
    }
    return d;
}

PyDoc_STRVAR(stop_hits_doc,
             "stop_hits(texts, lists_of, nlangs) -> (tokens, hits)\n\n"
             "lang.stop_hits_python: per text, its lower-cased whitespace-separated tokens' count, and for\n"
             "each of the nlangs stoplists how many of them it holds (hits[i * nlangs + lang]); lists_of maps\n"
             "a stopword to the indices of the lists that hold it (read once into a table of code points:\n"
             "a token is looked up where it stands in the lower-cased text).");

/* The stoplists as one open-addressing table of code-point strings, built once per lists_of dict: a token
   is looked up straight from the lower-cased text, without a str object per token. The table is rebuilt
   when another dict, or the same one at another size, is given; lang's dict is a constant (a dict changed
   in place at the same size would go unnoticed). */
typedef struct {
    uint64_t hash;
    Py_ssize_t len;     /* code points; 0 marks an empty slot (an empty token never occurs) */
    Py_UCS4 *chars;
    Py_ssize_t nlangs;  /* how many lists hold it, their indices at langs */
    Py_ssize_t *langs;
} StopEntry;

static struct {
    PyObject *dict;     /* the lists_of the table was built from (a strong reference) */
    Py_ssize_t size;    /* its size then */
    Py_ssize_t nlangs;
    size_t mask;
    StopEntry *slots;
} stops;


static void stops_clear(void) {
    if (stops.slots != NULL)
        for (size_t i = 0; i <= stops.mask; i++) {
            PyMem_Free(stops.slots[i].chars);
            PyMem_Free(stops.slots[i].langs);
        }
    PyMem_Free(stops.slots);
    Py_CLEAR(stops.dict);
    stops.slots = NULL;
    stops.mask = 0;
    stops.size = 0;
}

/* Build the table of `lists_of` (str -> tuple of list indices below nlangs), unless it is built already. */
static int stops_build(PyObject *lists_of, Py_ssize_t nlangs) {
    if (stops.dict == lists_of && stops.size == PyDict_GET_SIZE(lists_of) && stops.nlangs == nlangs)
        return 0;
    stops_clear();
    size_t cap = 16;
    while (cap < (size_t)PyDict_GET_SIZE(lists_of) * 2 + 1)
        cap *= 2;
    stops.slots = PyMem_Calloc(cap, sizeof(StopEntry));
    if (stops.slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    stops.mask = cap - 1;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(lists_of, &pos, &key, &value)) {
        if (!PyUnicode_CheckExact(key) || !PyTuple_Check(value)) {
            PyErr_SetString(PyExc_TypeError, "lists_of maps str to tuples");
            goto fail;
        }
        Py_ssize_t len = PyUnicode_GET_LENGTH(key);
        if (len == 0)
            continue; /* whitespace-separated tokens are never empty */
        int kind = PyUnicode_KIND(key);
        const void *data = PyUnicode_DATA(key);
        uint64_t h = FNV_START;
        for (Py_ssize_t j = 0; j < len; j++)
            h = fnv_step(h, PyUnicode_READ(kind, data, j));
        size_t i = (size_t)h & stops.mask;
        while (stops.slots[i].len != 0)
            i = (i + 1) & stops.mask;
        StopEntry *e = &stops.slots[i];
        Py_ssize_t nl = PyTuple_GET_SIZE(value);
        e->chars = PyMem_Malloc((size_t)len * sizeof(Py_UCS4));
        e->langs = PyMem_Malloc((size_t)(nl + 1) * sizeof(Py_ssize_t));
        if (e->chars == NULL || e->langs == NULL) {
            PyErr_NoMemory();
            goto fail;
        }
        for (Py_ssize_t j = 0; j < len; j++)
            e->chars[j] = PyUnicode_READ(kind, data, j);
        for (Py_ssize_t k = 0; k < nl; k++) {
            Py_ssize_t li = PyLong_AsSsize_t(PyTuple_GET_ITEM(value, k));
            if (li < 0 || li >= nlangs) {
                if (!PyErr_Occurred())
                    PyErr_Format(PyExc_ValueError, "list index %zd", li);
                goto fail;
            }
            e->langs[k] = li;
        }
        e->hash = h;
        e->len = len;
        e->nlangs = nl;
    }
    stops.dict = Py_NewRef(lists_of);
    stops.size = PyDict_GET_SIZE(lists_of);
    stops.nlangs = nlangs;
    return 0;
fail:
    stops_clear();
    return -1;
}

/* The entry for the token low[start:end] (ASCII letters lower-cased) with hash h, or NULL. */
SPECIALISED const StopEntry *stops_find(int kind, const void *data, Py_ssize_t start, Py_ssize_t end,
                                        uint64_t h) {
    Py_ssize_t len = end - start;
    for (size_t i = (size_t)h & stops.mask; stops.slots[i].len != 0; i = (i + 1) & stops.mask) {
        const StopEntry *e = &stops.slots[i];
        if (e->hash != h || e->len != len)
            continue;
        Py_ssize_t j = 0;
        while (j < len && e->chars[j] == (Py_UCS4)ascii_lower((int)PyUnicode_READ(kind, data, start + j)))
            j++;
        if (j == len)
            return e;
    }
    return NULL;
}

/* For a Latin-1 str's characters: ascii_lower, and Py_UNICODE_ISSPACE (filled on first use). */
static unsigned char latin1_lower[256], latin1_space[256], latin1_ready;

static void latin1_tables(void) {
    for (int c = 0; c < 256; c++) {
        latin1_lower[c] = (unsigned char)ascii_lower(c);
        latin1_space[c] = Py_UNICODE_ISSPACE((Py_UCS4)c) != 0;
    }
    latin1_ready = 1;
}

/* stop_hits' pass over one folded text: its token count; each token's stoplists counted in `row`. A Latin-1
   str's characters are lower-cased and tested for whitespace by table (most texts; ~10 instructions a
   character were 40 M over the bench's pages). */
SPECIALISED long stop_scan(int kind, const void *data, Py_ssize_t len, long *row) {
    long count = 0;
    Py_ssize_t start = -1;
    uint64_t h = FNV_START;
    if (kind == PyUnicode_1BYTE_KIND && !latin1_ready)
        latin1_tables();
    for (Py_ssize_t j = 0; j <= len; j++) {
        Py_UCS4 c;
        int word;
        if (kind == PyUnicode_1BYTE_KIND) {
            unsigned char b = j < len ? ((const Py_UCS1 *)data)[j] : ' ';
            c = latin1_lower[b];
            word = !latin1_space[b];
        } else {
            c = j < len ? (Py_UCS4)ascii_lower((int)PyUnicode_READ(kind, data, j)) : ' ';
            word = j < len && !Py_UNICODE_ISSPACE(c);
        }
        if (word) {
            if (start < 0) {
                start = j;
                h = FNV_START;
            }
            h = fnv_step(h, c);
            continue;
        }
        if (start < 0)
            continue;
        count++;
        const StopEntry *e = stops_find(kind, data, start, j, h);
        start = -1;
        if (e != NULL)
            for (Py_ssize_t k = 0; k < e->nlangs; k++)
                row[e->langs[k]]++;
    }
    return count;
}

static PyObject *native_stop_hits(PyObject *self, PyObject *args) {
    PyObject *texts, *lists_of;
    Py_ssize_t nlangs;
    if (!PyArg_ParseTuple(args, "O!O!n", &PyList_Type, &texts, &PyDict_Type, &lists_of, &nlangs))
        return NULL;
    if (nlangs <= 0 || nlangs > 1024)
        return PyErr_Format(PyExc_ValueError, "nlangs %zd", nlangs);
    if (tok.lower == NULL && (tok.lower = PyUnicode_InternFromString("lower")) == NULL)
        return NULL;
    if (stops_build(lists_of, nlangs) < 0)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(texts);
    long *hits = PyMem_Calloc((size_t)(n * nlangs) + 1, sizeof(long));
    PyObject *tokens = PyList_New(n), *hit_list = NULL, *result = NULL;
    if (hits == NULL || tokens == NULL) {
        if (hits == NULL)
            PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *text = PyList_GET_ITEM(texts, i);
        if (!PyUnicode_CheckExact(text)) {
            PyErr_SetString(PyExc_TypeError, "texts must be str");
            goto done;
        }
        PyObject *low = folded(text);
        if (low == NULL)
            goto done;
        long count;
        BY_KIND(count, low, stop_scan, PyUnicode_DATA(low), PyUnicode_GET_LENGTH(low), hits + i * nlangs);
        Py_DECREF(low);
        if (list_set_long(tokens, i, count) < 0)
            goto done;
    }
    if ((hit_list = PyList_New(n * nlangs)) == NULL)
        goto done;
    for (Py_ssize_t k = 0; k < n * nlangs; k++)
        if (list_set_long(hit_list, k, hits[k]) < 0)
            goto done;
    result = PyTuple_Pack(2, tokens, hit_list);
done:
    PyMem_Free(hits);
    Py_XDECREF(tokens);
    Py_XDECREF(hit_list);
    return result;
}

/* ------------------------------------------------------------------------------------------------ */
/* Scoring (score.score_python): link densities, prose weights, class/id and tag marks, inherited      */

static struct {
    int ready;
    PyObject *kind_weight;   /* heuristics.KIND_WEIGHT: kind -> float */
    double max_ld, no_punct, mark_max_share, boost, marks_max_removed, unspaced;
    Py_UCS4 *punct;          /* the characters of heuristics.SENTENCE_PUNCT's class, sorted */
    Py_ssize_t npunct;
    unsigned char punct_ascii[128]; /* those of them below 128, by code: has_punct's test of an ASCII
                                       character is then one load, not a binary search (most text) */
    PyObject *scripts;       /* heuristics.UNSPACED_SCRIPTS: str of each range's first and last character */
    PyObject *dense;         /* heuristics.DENSE_SCRIPTS, the same way */
    double dense_extra;      /* heuristics.DENSE_CHAR_WEIGHT - 1 */
    PyObject *bad_tags;      /* heuristics.BAD_TAGS, a tuple of str */
    PyObject *page_tags;     /* tags whose marks describe the page ("body", "html") */
    PyObject *article;       /* the tag that is a content container by itself */
    int bad, comment, good;  /* idents' bits */
} sc;

PyDoc_STRVAR(configure_score_doc,
             "configure_score(kind_weight, max_ld, no_punct, punct, mark_max_share, boost, marks_max_removed,\n"
             "                unspaced, scripts, dense, dense_weight, bad_tags, page_tags, article, bits)\n\n"
             "Hand over score.py's tables and thresholds: heuristics.KIND_WEIGHT, TARGET_MAX_LINK_DENSITY,\n"
             "NO_PUNCT_WEIGHT, the characters SENTENCE_PUNCT matches, MARK_MAX_SHARE, GOOD_CLASS_BOOST,\n"
             "MARKS_MAX_REMOVED, UNSPACED_CHARS_PER_WORD, UNSPACED_SCRIPTS and DENSE_SCRIPTS (each range's\n"
             "first and last character), DENSE_CHAR_WEIGHT, BAD_TAGS, the page-level tags, the article tag and\n"
             "idents' (BAD, COMMENT, GOOD) bits.");

static PyObject *native_configure_score(PyObject *self, PyObject *args) {
    PyObject *kind_weight, *punct, *scripts, *dense, *bad_tags, *page_tags, *article;
    double max_ld, no_punct, share, boost, removed, unspaced, dense_weight;
    int bad, comment, good;
    if (!PyArg_ParseTuple(args, "O!ddUddddUUdO!O!U(iii)", &PyDict_Type, &kind_weight, &max_ld, &no_punct,
                          &punct, &share, &boost, &removed, &unspaced, &scripts, &dense, &dense_weight,
                          &PyTuple_Type, &bad_tags, &PyTuple_Type, &page_tags, &article, &bad, &comment, &good))
        return NULL;
    if (PyUnicode_GET_LENGTH(scripts) % 2 || PyUnicode_GET_LENGTH(dense) % 2)
        return PyErr_Format(PyExc_ValueError, "scripts: pairs of characters");
    if (sc.ready) {
        PyErr_SetString(PyExc_RuntimeError, "worker.clean._native scoring is configured once");
        return NULL;
    }
    for (PyObject *t = bad_tags;; t = page_tags) {
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(t); k++)
            if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(t, k)))
                return PyErr_Format(PyExc_TypeError, "tags must be str");
        if (t == page_tags)
            break;
    }
    if ((sc.npunct = sorted_chars(punct, &sc.punct)) < 0)
        return NULL;
    for (Py_ssize_t k = 0; k < sc.npunct; k++)
        if (sc.punct[k] < 128)
            sc.punct_ascii[sc.punct[k]] = 1;
    sc.kind_weight = Py_NewRef(kind_weight);
    sc.scripts = Py_NewRef(scripts);
    sc.dense = Py_NewRef(dense);
    sc.dense_extra = dense_weight - 1.0;
    sc.bad_tags = Py_NewRef(bad_tags);
    sc.page_tags = Py_NewRef(page_tags);
    sc.article = Py_NewRef(article);
    sc.max_ld = max_ld;
    sc.no_punct = no_punct;
    sc.mark_max_share = share;
    sc.boost = boost;
    sc.marks_max_removed = removed;
    sc.unspaced = unspaced;
    sc.bad = bad;
    sc.comment = comment;
    sc.good = good;
    sc.ready = 1;
    Py_RETURN_NONE;
}

static int tag_in(PyObject *tag, PyObject *tuple) {
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(tuple); k++)
        if (str_eq(tag, PyTuple_GET_ITEM(tuple, k)))
            return 1;
    return 0;
}

/* The lowest first character of the ranges `bounds`: a character below it is in none (a Latin text's
   characters all are, and then the ranges are not read; PyUnicode_READ_CHAR is no plain load). */
static Py_UCS4 lowest_bound(PyObject *bounds) {
    Py_UCS4 lo = 0x110000;
    for (Py_ssize_t j = 0; j + 1 < PyUnicode_GET_LENGTH(bounds); j += 2)
        if (PyUnicode_READ_CHAR(bounds, j) < lo)
            lo = PyUnicode_READ_CHAR(bounds, j);
    return lo;
}

/* How many characters of `text` are in the ranges `bounds` (a str of each range's first and last), counted
   up to `most` (1: does it hold one?). */
static Py_ssize_t count_in(PyObject *text, PyObject *bounds, Py_ssize_t most) {
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t nb = PyUnicode_GET_LENGTH(bounds), count = 0;
    Py_UCS4 lo = lowest_bound(bounds);
    if (lo >= 128 && PyUnicode_IS_ASCII(text)) /* most text: none of its characters reaches the ranges */
        return 0;
    if ((lo >= 256 && kind == PyUnicode_1BYTE_KIND) || (lo >= 0x10000 && kind == PyUnicode_2BYTE_KIND))
        return 0; /* the storage holds no character that high */
    Py_ssize_t i = 0, n = PyUnicode_GET_LENGTH(text);
#ifdef __SSE2__
    /* a 2-byte str's characters under `lo`, eight a step (a curly quote or a dash in a Latin text) */
    if (kind == PyUnicode_2BYTE_KIND && lo > 0) {
        const Py_UCS2 *u = (const Py_UCS2 *)data;
        const __m128i below = _mm_set1_epi16((short)(lo - 1)); /* a unit >= lo survives subtracting lo - 1 */
        for (; i + 8 <= n; i += 8)
            if (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_subs_epu16(_mm_loadu_si128((const __m128i *)(u + i)), below),
                                                  _mm_setzero_si128())) != 0xFFFF)
                break;
    }
#endif
    for (; i < n && count < most; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c < lo)
            continue;
        for (Py_ssize_t j = 0; j + 1 < nb; j += 2)
            if (PyUnicode_READ_CHAR(bounds, j) <= c && c <= PyUnicode_READ_CHAR(bounds, j + 1)) {
                count++;
                break;
            }
    }
    return count;
}

static int has_punct(PyObject *text) {
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    for (Py_ssize_t i = 0, n = PyUnicode_GET_LENGTH(text); i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c < 128 ? sc.punct_ascii[c] : in_sorted(sc.punct, sc.npunct, c))
            return 1;
    }
    return 0;
}

/* list[i] as a C long; -1 with an exception set when it is no int. A one-digit int (every count and index
   of a page) is read in place (small_int): PyLong_AsLong's call was ~26 instructions a read, 1.4 million
   reads over the bench's 781 pages. */
static int long_at(PyObject *list, Py_ssize_t i, long *v) {
    PyObject *x = PyList_GET_ITEM(list, i);
    if (!PyLong_CheckExact(x)) {
        PyErr_SetString(PyExc_TypeError, "expected int columns");
        return -1;
    }
    Py_ssize_t small;
    if (small_int(x, &small)) {
        *v = (long)small;
        return 0;
    }
    *v = PyLong_AsLong(x);
    return *v == -1 && PyErr_Occurred() ? -1 : 0;
}

static PyObject *float_list(const double *v, Py_ssize_t n) {
    PyObject *list = PyList_New(n);
    for (Py_ssize_t i = 0; list != NULL && i < n; i++) {
        PyObject *x = PyFloat_FromDouble(v[i]);
        if (x == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

static PyObject *bool_list(const unsigned char *v, Py_ssize_t n) {
    PyObject *list = PyList_New(n);
    for (Py_ssize_t i = 0; list != NULL && i < n; i++)
        PyList_SET_ITEM(list, i, Py_NewRef(v[i] ? Py_True : Py_False));
    return list;
}

/* Each element's flag or any ancestor's (score.inherit). */
static void inherit_flags(unsigned char *flags, const long *skips, Py_ssize_t n) {
    Py_ssize_t covered = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (flags[i] && i >= covered) {
            covered = skips[i];
            for (Py_ssize_t j = i; j < covered && j < n; j++)
                flags[j] = 1;
        }
}

PyDoc_STRVAR(score_doc,
             "score(tags, firsts, ends, skips, owners, texts, kinds, chars, words, link_chars, link_words, flags)\n"
             "  -> (link_density, weights, marked, comment, good, comment_marked) | None\n\n"
             "score.score_python's lists from a segmentation's columns and its class/id flags; None when the\n"
             "columns are not a segmentation's (the Python code then decides).");

static PyObject *native_score(PyObject *self, PyObject *args) {
    PyObject *tags, *firsts, *ends, *skips_l, *owners_l, *texts, *kinds, *chars_l, *words_l, *lc_l, *lw_l;
    const char *flags;
    Py_ssize_t nflags;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!O!O!O!O!y#", &PyList_Type, &tags, &PyList_Type, &firsts,
                          &PyList_Type, &ends, &PyList_Type, &skips_l, &PyList_Type, &owners_l, &PyList_Type,
                          &texts, &PyList_Type, &kinds, &PyList_Type, &chars_l, &PyList_Type, &words_l,
                          &PyList_Type, &lc_l, &PyList_Type, &lw_l, &flags, &nflags))
        return NULL;
    if (!sc.ready) {
        PyErr_SetString(PyExc_RuntimeError, "configure_score first");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(tags), nb = PyList_GET_SIZE(texts);
    if (PyList_GET_SIZE(firsts) != n || PyList_GET_SIZE(ends) != n || PyList_GET_SIZE(skips_l) != n ||
        nflags != n || PyList_GET_SIZE(owners_l) != nb || PyList_GET_SIZE(kinds) != nb ||
        PyList_GET_SIZE(chars_l) != nb || PyList_GET_SIZE(words_l) != nb || PyList_GET_SIZE(lc_l) != nb ||
        PyList_GET_SIZE(lw_l) != nb || n == 0)
        Py_RETURN_NONE;
    PyObject *result = NULL, *cols[6] = {NULL};
    double *ld = PyMem_Calloc((size_t)nb + 1, sizeof(double)), *prose = PyMem_Calloc((size_t)nb + 1, sizeof(double));
    double *weights = PyMem_Calloc((size_t)nb + 1, sizeof(double)), *unmarked = PyMem_Calloc((size_t)nb + 1, sizeof(double));
    double *prefix = PyMem_Calloc((size_t)nb + 1, sizeof(double));
    long *skips = PyMem_Calloc((size_t)n + 1, sizeof(long)), *owners = PyMem_Calloc((size_t)nb + 1, sizeof(long));
    unsigned char *marks = PyMem_Calloc(3 * (size_t)n + 1, 1);
    if (!ld || !prose || !weights || !unmarked || !prefix || !skips || !owners || !marks) {
        PyErr_NoMemory();
        goto done;
    }
    unsigned char *marked = marks, *comment = marks + n, *good = marks + 2 * n;
    /* Link density and prose weight per block. */
    volatile double square = 2.0;
    for (Py_ssize_t b = 0; b < nb; b++) {
        long c, w, lc, lw, owner;
        if (long_at(chars_l, b, &c) < 0 || long_at(words_l, b, &w) < 0 || long_at(lc_l, b, &lc) < 0 ||
            long_at(lw_l, b, &lw) < 0 || long_at(owners_l, b, &owner) < 0)
            goto done;
        if (owner < 0 || owner >= n)
            goto invalid;
        owners[b] = owner;
        if (lw || lc) {
            if ((double)c > sc.unspaced * (double)w) {
                ld[b] = (double)lc / (double)c;
            } else if (w == 0) {
                goto invalid;
            } else {
                ld[b] = (double)lw / (double)w;
            }
        }
        if (ld[b] > sc.max_ld)
            continue;
        PyObject *text = PyList_GET_ITEM(texts, b), *kind = PyList_GET_ITEM(kinds, b);
        if (!PyUnicode_CheckExact(text) || !PyUnicode_CheckExact(kind))
            goto invalid;
        double kw = 1.0;
        PyObject *v = PyDict_GetItemWithError(sc.kind_weight, kind);
        if (v != NULL) {
            kw = PyFloat_AsDouble(v);
            if (kw == -1.0 && PyErr_Occurred())
                goto done;
        } else if (PyErr_Occurred()) {
            goto done;
        }
        /* libm's pow, as float ** 2 calls it: a constant exponent would let the compiler square instead,
           which rounds differently in the last bit on some values (1 - 8/41). */
        /* a character of a dense script weighs DENSE_CHAR_WEIGHT characters */
        double size = (double)c + sc.dense_extra * (double)count_in(text, sc.dense, PY_SSIZE_T_MAX);
        double x = size * pow(1.0 - ld[b], square) * kw;
        /* text of a script that does not space words reads as sentences (UNSPACED_CHARS_PER_WORD) */
        int sentences = has_punct(text) || ((double)c > sc.unspaced * (double)w && count_in(text, sc.scripts, 1));
        prose[b] = sentences ? x : x * sc.no_punct;
    }
    /* Each element's own marks, from its tag and class/id flags (the root's describe the page). */
    prefix[0] = 0.0;
    for (Py_ssize_t b = 0; b < nb; b++)
        prefix[b + 1] = prefix[b] + prose[b];
    double limit = sc.mark_max_share * (prefix[nb] != 0.0 ? prefix[nb] : 1.0);
    for (Py_ssize_t i = 0; i < n; i++) {
        long first, end, skip;
        if (long_at(firsts, i, &first) < 0 || long_at(ends, i, &end) < 0 || long_at(skips_l, i, &skip) < 0)
            goto done;
        if (first < 0 || end < first || end > nb || skip <= i || skip > n)
            goto invalid;
        skips[i] = skip;
        PyObject *tag = PyList_GET_ITEM(tags, i);
        if (!PyUnicode_CheckExact(tag))
            goto invalid;
        double own = prefix[end] - prefix[first];
        if (i == 0 || own <= 0.0 || tag_in(tag, sc.page_tags))
            continue;
        int f = (unsigned char)flags[i];
        good[i] = (f & sc.good) || str_eq(tag, sc.article);
        if (f & sc.comment) {
            comment[i] = 1;
            continue;
        }
        if (((f & sc.bad) || tag_in(tag, sc.bad_tags)) && own <= limit)
            marked[i] = 1;
    }
    PyObject *comment_marked = PyList_New(0);
    if ((cols[5] = comment_marked) == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++)
        if (comment[i]) {
            PyObject *x = int_of(i);
            if (x == NULL || PyList_Append(comment_marked, x) < 0) {
                Py_XDECREF(x);
                goto done;
            }
            Py_DECREF(x);
        }
    inherit_flags(marked, skips, n);
    inherit_flags(comment, skips, n);
    inherit_flags(good, skips, n);
    PySum sw = {0.0, 0.0, 0}, su = {0.0, 0.0, 0};
    for (Py_ssize_t b = 0; b < nb; b++) {
        long e = owners[b];
        unmarked[b] = comment[e] ? 0.0 : prose[b];
        weights[b] = marked[e] ? 0.0 : good[e] ? unmarked[b] * sc.boost : unmarked[b];
        pysum_add(&sw, weights[b]);
        pysum_add(&su, unmarked[b]);
    }
    PyObject *total_w = pysum_result(&sw), *total_u = pysum_result(&su);
    if (total_w == NULL || total_u == NULL) {
        Py_XDECREF(total_w);
        Py_XDECREF(total_u);
        goto done;
    }
    double tw = PyFloat_Check(total_w) ? PyFloat_AS_DOUBLE(total_w) : 0.0;
    double tu = PyFloat_Check(total_u) ? PyFloat_AS_DOUBLE(total_u) : 0.0;
    Py_DECREF(total_w);
    Py_DECREF(total_u);
    if (tw < (1.0 - sc.marks_max_removed) * tu) /* the marks are wrong about this page */
        memcpy(weights, unmarked, sizeof(double) * (size_t)nb);
    if ((cols[0] = float_list(ld, nb)) == NULL || (cols[1] = float_list(weights, nb)) == NULL ||
        (cols[2] = bool_list(marked, n)) == NULL || (cols[3] = bool_list(comment, n)) == NULL ||
        (cols[4] = bool_list(good, n)) == NULL)
        goto done;
    result = PyTuple_New(6);
    if (result != NULL)
        for (int k = 0; k < 6; k++) {
            PyTuple_SET_ITEM(result, k, cols[k]);
            cols[k] = NULL;
        }
    goto done;
invalid:
    if (!PyErr_Occurred())
        result = Py_NewRef(Py_None);
done:
    for (int k = 0; k < 6; k++)
        Py_XDECREF(cols[k]);
    PyMem_Free(ld);
    PyMem_Free(prose);
    PyMem_Free(weights);
    PyMem_Free(unmarked);
    PyMem_Free(prefix);
    PyMem_Free(skips);
    PyMem_Free(owners);
    PyMem_Free(marks);
    return result;
}

/* ------------------------------------------------------------------------------------------------ */
/* The block model's trees (worker/clean/model/trees.py, Trees.raw_python)                            */

PyDoc_STRVAR(tree_scores_doc,
             "tree_scores(xt, feature, threshold, leaves, bias) -> bytes\n\n"
             "Trees.raw_python in C: the raw score of every block (a column of `xt`, a C-contiguous float64\n"
             "matrix, features x blocks) under complete depth-3 trees in heap order: `feature` (int32) and\n"
             "`threshold` (float64) hold 7 comparisons per tree (a value > threshold goes right; NaN goes\n"
             "left), `leaves` (float64) 8 values per tree. Per block the leaves are summed tree by tree, the\n"
             "first tree's value first, then `bias` is added: raw_python's order, so the results are equal.\n"
             "Returns the scores as the bytes of float64s.");

#define TREE_NODES 7
#define TREE_LEAVES 8

#ifdef VECTOR_HASHES
/* score_blocks four blocks a step with AVX2: all 7 comparisons of a tree (greater-than, ordered: NaN goes
   left as in the scalar code), the path and the leaf chosen by blends. Each block's leaves are added in
   tree order as in the scalar code, so the sums are equal to the bit. Returns how many blocks it did (a
   multiple of 4); the scalar code does the rest. */
__attribute__((target("avx2"))) static Py_ssize_t score_blocks4(const double *x, Py_ssize_t n,
                                                                const int32_t *f, const double *thr,
                                                                const double *leaf, Py_ssize_t trees,
                                                                double *out) {
    Py_ssize_t n4 = n & ~(Py_ssize_t)3;
    for (Py_ssize_t t = 0; t < trees; t++) {
        const double *row[TREE_NODES];
        __m256d th[TREE_NODES], lv[TREE_LEAVES];
        for (int k = 0; k < TREE_NODES; k++) {
            row[k] = x + (Py_ssize_t)f[t * TREE_NODES + k] * n;
            th[k] = _mm256_set1_pd(thr[t * TREE_NODES + k]);
        }
        for (int k = 0; k < TREE_LEAVES; k++)
            lv[k] = _mm256_set1_pd(leaf[t * TREE_LEAVES + k]);
        for (Py_ssize_t b = 0; b < n4; b += 4) {
            __m256d c[TREE_NODES];
            for (int k = 0; k < TREE_NODES; k++)
                c[k] = _mm256_cmp_pd(_mm256_loadu_pd(row[k] + b), th[k], _CMP_GT_OQ);
            /* the answers on the path: node 0, node 1 or 2, node 3, 4, 5 or 6 */
            __m256d s1 = _mm256_blendv_pd(c[1], c[2], c[0]);
            __m256d s2 = _mm256_blendv_pd(_mm256_blendv_pd(c[3], c[4], s1), _mm256_blendv_pd(c[5], c[6], s1),
                                          c[0]);
            /* leaf 4 * s0 + 2 * s1 + s2 */
            __m256d lo = _mm256_blendv_pd(_mm256_blendv_pd(lv[0], lv[1], s2),
                                          _mm256_blendv_pd(lv[2], lv[3], s2), s1);
            __m256d hi = _mm256_blendv_pd(_mm256_blendv_pd(lv[4], lv[5], s2),
                                          _mm256_blendv_pd(lv[6], lv[7], s2), s1);
            __m256d v = _mm256_blendv_pd(lo, hi, c[0]);
            _mm256_storeu_pd(out + b, t == 0 ? v : _mm256_add_pd(_mm256_loadu_pd(out + b), v));
        }
    }
    return n4;
}
#endif

/* The raw scores of the n blocks of x (features x blocks) into out: Trees.raw_python's sums, tree by tree
   in order (the first tree's leaf is stored, not added to 0.0, which would turn a -0.0 leaf into 0.0). */
static void score_blocks(const double *x, Py_ssize_t n, const int32_t *f, const double *thr,
                         const double *leaf, Py_ssize_t trees, double bias, double *out) {
    Py_ssize_t done = 0;
#ifdef VECTOR_HASHES
    if (vector_avx2)
        done = score_blocks4(x, n, f, thr, leaf, trees, out);
#endif
    /* tree by tree over the blocks left: a tree's comparisons read few feature rows, each in block order,
       and the blocks' paths through one tree do not wait on each other */
    if (done < n)
        for (Py_ssize_t t = 0; t < trees; t++) {
            const int32_t *tf = f + t * TREE_NODES;
            const double *tt = thr + t * TREE_NODES, *tl = leaf + t * TREE_LEAVES - TREE_NODES;
            for (Py_ssize_t b = done; b < n; b++) {
                int k = 0;
                for (int level = 0; level < 3; level++)
                    k = 2 * k + 1 + (x[(Py_ssize_t)tf[k] * n + b] > tt[k]);
                out[b] = t == 0 ? tl[k] : out[b] + tl[k];
            }
        }
    for (Py_ssize_t b = 0; b < n; b++)
        out[b] = (trees ? out[b] : 0.0) + bias;
}

/* The buffers of a tree_scores-like call, checked: 0, or -1 with an exception set (xt released). */
static int tree_args(PyObject *xt_obj, Py_buffer *xt, const Py_buffer *feature, const Py_buffer *threshold,
                     const Py_buffer *leaves, Py_ssize_t *trees) {
    *trees = leaves->len / (Py_ssize_t)(TREE_LEAVES * sizeof(double));
    if (leaves->len != *trees * (Py_ssize_t)(TREE_LEAVES * sizeof(double)) ||
        feature->len != *trees * (Py_ssize_t)(TREE_NODES * sizeof(int32_t)) ||
        threshold->len != *trees * (Py_ssize_t)(TREE_NODES * sizeof(double))) {
        PyErr_SetString(PyExc_ValueError, "feature, threshold and leaves disagree on the number of trees");
        return -1;
    }
    if (PyObject_GetBuffer(xt_obj, xt, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND) < 0)
        return -1;
    if (xt->ndim != 2 || xt->itemsize != sizeof(double) || xt->format == NULL || strcmp(xt->format, "d") != 0) {
        PyErr_SetString(PyExc_TypeError, "xt must be a C-contiguous float64 matrix");
        PyBuffer_Release(xt);
        return -1;
    }
    const int32_t *f = (const int32_t *)feature->buf;
    for (Py_ssize_t j = 0; j < *trees * TREE_NODES; j++)
        if (f[j] < 0 || f[j] >= xt->shape[0]) {
            PyErr_SetString(PyExc_ValueError, "a comparison reads a feature outside xt");
            PyBuffer_Release(xt);
            return -1;
        }
    return 0;
}

static PyObject *native_tree_scores(PyObject *self, PyObject *args) {
    PyObject *xt_obj;
    Py_buffer feature, threshold, leaves, xt;
    double bias;
    if (!PyArg_ParseTuple(args, "Oy*y*y*d", &xt_obj, &feature, &threshold, &leaves, &bias))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t trees;
    if (tree_args(xt_obj, &xt, &feature, &threshold, &leaves, &trees) < 0)
        goto done;
    Py_ssize_t n = xt.shape[1];
    result = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(double));
    if (result != NULL)
        score_blocks(xt.buf, n, feature.buf, threshold.buf, leaves.buf, trees, bias,
                     (double *)PyBytes_AS_STRING(result));
    PyBuffer_Release(&xt);
done:
    PyBuffer_Release(&feature);
    PyBuffer_Release(&threshold);
    PyBuffer_Release(&leaves);
    return result;
}

PyDoc_STRVAR(tree_above_doc,
             "tree_above(xt, feature, threshold, leaves, bias, cut, zero_row) -> list[int]\n\n"
             "The blocks (columns of `xt`, in order) whose tree_scores(xt, feature, threshold, leaves, bias)\n"
             "are above `cut` and, when `zero_row` >= 0, whose value in row `zero_row` of `xt` is 0:\n"
             "Trees.above_python, with the scores computed as tree_scores computes them.");

static PyObject *native_tree_above(PyObject *self, PyObject *args) {
    PyObject *xt_obj;
    Py_buffer feature, threshold, leaves, xt;
    double bias, cut;
    Py_ssize_t zero_row;
    if (!PyArg_ParseTuple(args, "Oy*y*y*ddn", &xt_obj, &feature, &threshold, &leaves, &bias, &cut, &zero_row))
        return NULL;
    PyObject *result = NULL;
    double *scores = NULL;
    Py_ssize_t trees;
    if (tree_args(xt_obj, &xt, &feature, &threshold, &leaves, &trees) < 0)
        goto done;
    Py_ssize_t n = xt.shape[1];
    const double *x = xt.buf;
    if (zero_row >= xt.shape[0]) {
        PyErr_SetString(PyExc_ValueError, "tree_above: zero_row outside xt");
        goto release;
    }
    scores = PyMem_Malloc((n ? n : 1) * sizeof(double));
    if (scores == NULL) {
        PyErr_NoMemory();
        goto release;
    }
    score_blocks(x, n, feature.buf, threshold.buf, leaves.buf, trees, bias, scores);
    const double *zero = zero_row >= 0 ? x + zero_row * n : NULL;
    result = PyList_New(0);
    for (Py_ssize_t b = 0; result != NULL && b < n; b++) {
        if (!(scores[b] > cut) || (zero != NULL && zero[b] != 0.0))
            continue;
        PyObject *i = PyLong_FromSsize_t(b);
        if (i == NULL || PyList_Append(result, i) < 0)
            Py_CLEAR(result);
        Py_XDECREF(i);
    }
release:
    PyBuffer_Release(&xt);
done:
    PyMem_Free(scores);
    PyBuffer_Release(&feature);
    PyBuffer_Release(&threshold);
    PyBuffer_Release(&leaves);
    return result;
}

/* The block model's features (worker/clean/model/features.py, _page_features_python)                */

PyDoc_STRVAR(block_features_doc,
             "block_features(out, rows, chars, words, owners, weights, link_density, kinds, kind_codes, tags,\n"
             "               tag_codes, parents, firsts, ends, texts, marked, comment, good, target, ranges, kept,\n"
             "               sentence_ends) -> None\n\n"
             "features._page_features_python in C, but for numpy's log1p and the neighbour rows: fills the\n"
             "page's shallow and container rows, ends_sentence (the block's last character is one of\n"
             "`sentence_ends`), kept_gap and repeats_kept of `out` (a C-contiguous float64 matrix, features x\n"
             "blocks, whose other rows it leaves as they are: the rows it fills need not be zeroed), writing log_chars, log_words and owner_blocks as the counts whose log1p they\n"
             "are (numpy's log1p, which is not libm's to the bit, is applied by the caller). `rows`: the row of\n"
             "each of features.SHALLOW, features.CONTAINER, ends_sentence, kept_gap and repeats_kept. kinds\n"
             "(per block) and tags (per element) are strs, coded by the dicts kind_codes and tag_codes (a str\n"
             "neither holds: the dict's length); marked, comment and good are per-element lists of small ints\n"
             "(bools); the other columns are the segmentation's and the scores' lists. Sums run in the order\n"
             "of the numpy reference; the page-wide log1p are math.log1p's (libm's), as there.");

enum { F_LOG_CHARS, F_LOG_WORDS, F_LINK_DENSITY, F_WEIGHT_PER_CHAR, F_KIND, F_TAG, F_DEPTH, F_POSITION,
       F_PERIODS, F_COMMAS, F_MARKED, F_COMMENT, F_GOOD, F_IN_TARGET, F_IN_REGION, F_HEUR_KEPT,
       F_REGION_DISTANCE, F_OWNER_SHARE, F_PARENT_SHARE, F_OWNER_BLOCKS, F_TARGET_SHARE, F_PAGE_BLOCKS,
       F_PAGE_LOG_CHARS, F_REGION_LOG_CHARS, F_ENDS_SENTENCE, F_KEPT_GAP, F_REPEATS_KEPT, F_NAMED };
#define FEATURE_FAR 50.0

static int double_at(PyObject *list, Py_ssize_t i, double *v) {
    PyObject *x = PyList_GET_ITEM(list, i);
    if (!PyFloat_CheckExact(x) && !PyLong_CheckExact(x)) {
        PyErr_SetString(PyExc_TypeError, "expected float columns");
        return -1;
    }
    *v = PyFloat_AsDouble(x);
    return *v == -1.0 && PyErr_Occurred() ? -1 : 0;
}

static int ends_with_char_of(PyObject *text, PyObject *set); /* below, with the classifier's */

/* How many times c is in the text (str.count): memchr over one-byte storage, else a loop. */
static Py_ssize_t char_count(PyObject *text, Py_UCS4 c) {
    Py_ssize_t len = PyUnicode_GET_LENGTH(text), count = 0;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    if (kind == PyUnicode_1BYTE_KIND) {
        const char *p = data, *end = p + len;
        while ((p = memchr(p, (int)c, (size_t)(end - p))) != NULL) {
            count++;
            p++;
        }
        return count;
    }
    for (Py_ssize_t j = 0; j < len; j++)
        count += PyUnicode_READ(kind, data, j) == c;
    return count;
}

/* A hash of a text's length and last character, below REPEAT_SHAPES: equal texts have equal shapes. */
#define REPEAT_SHAPES 4096
static size_t text_shape(PyObject *text) {
    Py_ssize_t len = PyUnicode_GET_LENGTH(text);
    Py_UCS4 last = len ? PyUnicode_READ_CHAR(text, len - 1) : 0;
    return ((size_t)len * 131u + (size_t)last) % REPEAT_SHAPES;
}

/* codes[key] (a small int), or len(codes) when the dict does not hold key: map(codes.get, keys,
   repeat(len(codes))) of the reference, byte by byte. -1 with an exception when a code is not a byte. */
static int code_of(PyObject *codes, PyObject *key) {
    PyObject *v = PyDict_GetItemWithError(codes, key);
    if (v == NULL)
        return PyErr_Occurred() ? -1 : (int)PyDict_GET_SIZE(codes);
    long c = PyLong_AsLong(v);
    if (c < 0 || c > 255) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "block_features: a code is not a byte");
        return -1;
    }
    return (int)c;
}

static int long_at_int(PyObject *list, Py_ssize_t i, long *v) {
    PyObject *x = PyList_GET_ITEM(list, i);
    if (!PyLong_Check(x)) {
        PyErr_SetString(PyExc_TypeError, "expected int or bool columns");
        return -1;
    }
    *v = PyLong_AsLong(x);
    return *v == -1 && PyErr_Occurred() ? -1 : 0;
}

/* A list of per-element flags as bytes (bytes(flags) of the reference): 0, or -1 with an exception. */
static int flag_bytes(PyObject *flags, unsigned char *dst, Py_ssize_t m) {
    for (Py_ssize_t e = 0; e < m; e++) {
        PyObject *x = PyList_GET_ITEM(flags, e);
        if (x == Py_False || x == Py_True) { /* the common case: bools */
            dst[e] = x == Py_True;
            continue;
        }
        long v;
        if (long_at_int(flags, e, &v) < 0)
            return -1;
        if (v < 0 || v > 255) {
            PyErr_SetString(PyExc_ValueError, "block_features: a flag is not a byte");
            return -1;
        }
        dst[e] = (unsigned char)v;
    }
    return 0;
}

static PyObject *native_block_features(PyObject *self, PyObject *args) {
    PyObject *out_obj, *rows, *chars, *words, *owners, *weights, *ld, *kinds, *kind_codes, *tags, *tag_codes,
        *parents, *firsts, *ends, *texts, *marked, *comment, *good, *ranges, *kept, *sentence_ends;
    Py_buffer out;
    Py_ssize_t target;
    if (!PyArg_ParseTuple(args, "OO!O!O!O!O!O!O!O!O!O!O!O!O!O!O!O!O!nO!O!U", &out_obj, &PyTuple_Type, &rows,
                          &PyList_Type, &chars, &PyList_Type, &words, &PyList_Type, &owners, &PyList_Type,
                          &weights, &PyList_Type, &ld, &PyList_Type, &kinds, &PyDict_Type, &kind_codes,
                          &PyList_Type, &tags, &PyDict_Type, &tag_codes, &PyList_Type, &parents, &PyList_Type,
                          &firsts, &PyList_Type, &ends, &PyList_Type, &texts, &PyList_Type, &marked,
                          &PyList_Type, &comment, &PyList_Type, &good, &target, &PyList_Type, &ranges,
                          &PyList_Type, &kept, &sentence_ends))
        return NULL;
    PyObject *result = NULL, *held = NULL;
    int have_out = 0;
    long *lchars = NULL, *lwords = NULL, *lowners = NULL, *lparents = NULL, *lfirsts = NULL, *lends = NULL;
    double *prefix = NULL, *subtree = NULL, *lweights = NULL;
    long *depth = NULL;
    unsigned char *in_region = NULL, *is_kept = NULL, *kind = NULL, *tag = NULL, *mk = NULL, *cm = NULL,
                  *gd = NULL;
    Py_ssize_t n = PyList_GET_SIZE(chars), m = PyList_GET_SIZE(parents);
    if (PyObject_GetBuffer(out_obj, &out, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND | PyBUF_WRITABLE) < 0)
        goto done;
    have_out = 1;
    if (out.ndim != 2 || out.itemsize != sizeof(double) || out.format == NULL || strcmp(out.format, "d") != 0 ||
        out.shape[1] != n) {
        PyErr_SetString(PyExc_TypeError, "out must be a C-contiguous float64 matrix, a column per block");
        goto done;
    }
    Py_ssize_t nrows = out.shape[0];
    if (PyTuple_GET_SIZE(rows) != F_NAMED || PyList_GET_SIZE(words) != n ||
        PyList_GET_SIZE(owners) != n || PyList_GET_SIZE(weights) != n || PyList_GET_SIZE(ld) != n ||
        PyList_GET_SIZE(texts) != n || PyList_GET_SIZE(kinds) != n || PyList_GET_SIZE(tags) != m ||
        PyList_GET_SIZE(marked) != m || PyList_GET_SIZE(comment) != m || PyList_GET_SIZE(good) != m ||
        PyList_GET_SIZE(firsts) != m || PyList_GET_SIZE(ends) != m || n == 0 || m == 0 || target < 0 ||
        target >= m || PyList_GET_SIZE(ranges) == 0) {
        PyErr_SetString(PyExc_ValueError, "block_features: columns of different lengths");
        goto done;
    }
    Py_ssize_t row[F_NAMED];
    for (int k = 0; k < F_NAMED; k++) {
        row[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(rows, k));
        if (row[k] < 0 || row[k] >= nrows) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "block_features: a row outside out");
            goto done;
        }
    }
    kind = PyMem_Malloc(n);
    tag = PyMem_Malloc(m);
    mk = PyMem_Malloc(m);
    cm = PyMem_Malloc(m);
    gd = PyMem_Malloc(m);
    if (!kind || !tag || !mk || !cm || !gd) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t b = 0; b < n; b++) {
        int c = code_of(kind_codes, PyList_GET_ITEM(kinds, b));
        if (c < 0)
            goto done;
        kind[b] = (unsigned char)c;
    }
    for (Py_ssize_t e = 0; e < m; e++) {
        int c = code_of(tag_codes, PyList_GET_ITEM(tags, e));
        if (c < 0)
            goto done;
        tag[e] = (unsigned char)c;
    }
    if (flag_bytes(marked, mk, m) < 0 || flag_bytes(comment, cm, m) < 0 || flag_bytes(good, gd, m) < 0)
        goto done;
    lchars = PyMem_Malloc(n * sizeof(long));
    lwords = PyMem_Malloc(n * sizeof(long));
    lowners = PyMem_Malloc(n * sizeof(long));
    lparents = PyMem_Malloc(m * sizeof(long));
    lfirsts = PyMem_Malloc(m * sizeof(long));
    lends = PyMem_Malloc(m * sizeof(long));
    depth = PyMem_Calloc(m, sizeof(long));
    prefix = PyMem_Malloc((n + 1) * sizeof(double));
    lweights = PyMem_Malloc(n * sizeof(double));
    subtree = PyMem_Malloc(m * sizeof(double));
    in_region = PyMem_Calloc(n, 1);
    is_kept = PyMem_Calloc(n, 1);
    if (!lchars || !lwords || !lowners || !lparents || !lfirsts || !lends || !depth || !prefix || !subtree ||
        !lweights || !in_region || !is_kept) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t b = 0; b < n; b++) {
        if (long_at(chars, b, &lchars[b]) < 0 || long_at(words, b, &lwords[b]) < 0 ||
            long_at(owners, b, &lowners[b]) < 0)
            goto done;
        if (lowners[b] < 0 || lowners[b] >= m) {
            PyErr_SetString(PyExc_ValueError, "block_features: an owner outside the elements");
            goto done;
        }
    }
    for (Py_ssize_t e = 0; e < m; e++) {
        if (long_at(parents, e, &lparents[e]) < 0 || long_at(firsts, e, &lfirsts[e]) < 0 ||
            long_at(ends, e, &lends[e]) < 0)
            goto done;
        if (lparents[e] >= e || lparents[e] < -1 || lfirsts[e] < 0 || lends[e] < lfirsts[e] || lends[e] > n) {
            PyErr_SetString(PyExc_ValueError, "block_features: an element outside the page");
            goto done;
        }
    }
    /* depths: depths() of the reference (a parent of -1 past the root reads the last element's depth, as
       Python's out[-1] does: 0 until it is set) */
    depth[0] = 0;
    for (Py_ssize_t e = 1; e < m; e++)
        depth[e] = (lparents[e] >= 0 ? depth[lparents[e]] : depth[m - 1]) + 1;
    /* prefix sums of the weights: np.concatenate(([0.0], np.cumsum(weights))) */
    prefix[0] = 0.0;
    for (Py_ssize_t b = 0; b < n; b++) {
        if (double_at(weights, b, &lweights[b]) < 0)
            goto done;
        prefix[b + 1] = b == 0 ? lweights[b] : prefix[b] + lweights[b];
    }
    double total = prefix[n] != 0.0 ? prefix[n] : 1.0;
    for (Py_ssize_t e = 0; e < m; e++)
        subtree[e] = (prefix[lends[e]] - prefix[lfirsts[e]]) / total;
    Py_ssize_t nranges = PyList_GET_SIZE(ranges), first_lo = 0, last_hi = 0;
    for (Py_ssize_t r = 0; r < nranges; r++) {
        PyObject *pair = PyList_GET_ITEM(ranges, r);
        Py_ssize_t lo, hi;
        if (!PyTuple_Check(pair) || !PyArg_ParseTuple(pair, "nn", &lo, &hi))
            goto done;
        if (r == 0)
            first_lo = lo;
        if (r == nranges - 1)
            last_hi = hi;
        for (Py_ssize_t b = lo < 0 ? 0 : lo; b < hi && b < n; b++)
            in_region[b] = 1;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(kept); i++) {
        long b;
        if (long_at(kept, i, &b) < 0)
            goto done;
        if (b < 0 || b >= n) {
            PyErr_SetString(PyExc_ValueError, "block_features: a kept block outside the page");
            goto done;
        }
        is_kept[b] = 1;
    }
    /* repeats_kept: the block's text is a kept block's and it is not kept itself (features._repeats) */
    /* the set of the kept texts, and a filter of their (length, last character): a text the filter does
       not hold equals none of them, and is not hashed */
    unsigned char shapes[REPEAT_SHAPES / 8] = {0};
    if (PyList_GET_SIZE(kept) > 0) {
        if ((held = PySet_New(NULL)) == NULL)
            goto done;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(kept); i++) {
            PyObject *text = PyList_GET_ITEM(texts, PyLong_AsSsize_t(PyList_GET_ITEM(kept, i)));
            if (PySet_Add(held, text) < 0)
                goto done;
            if (PyUnicode_Check(text)) {
                size_t h = text_shape(text);
                shapes[h / 8] |= (unsigned char)(1u << (h % 8));
            }
        }
    }
    double *x = (double *)out.buf;
#define AT(r, b) x[(r) * n + (b)]
    long page_chars = 0, region_chars = 0;
    for (Py_ssize_t b = 0; b < n; b++) {
        long o = lowners[b];
        double l;
        if (double_at(ld, b, &l) < 0)
            goto done;
        PyObject *text = PyList_GET_ITEM(texts, b);
        if (!PyUnicode_CheckExact(text)) {
            PyErr_SetString(PyExc_TypeError, "texts must be str");
            goto done;
        }
        double c = (double)lchars[b], w = (double)lwords[b];
        page_chars += lchars[b];
        region_chars += in_region[b] ? lchars[b] : 0;
        AT(row[F_LOG_CHARS], b) = c; /* the caller takes log1p of these three rows */
        AT(row[F_LOG_WORDS], b) = w;
        AT(row[F_LINK_DENSITY], b) = l;
        AT(row[F_WEIGHT_PER_CHAR], b) = lweights[b] / c;
        AT(row[F_KIND], b) = kind[b];
        AT(row[F_TAG], b) = tag[o];
        AT(row[F_DEPTH], b) = (double)depth[o];
        AT(row[F_POSITION], b) = (double)b / (double)n;
        AT(row[F_PERIODS], b) = (double)char_count(text, '.') / w;
        AT(row[F_COMMAS], b) = (double)char_count(text, ',') / w;
        AT(row[F_MARKED], b) = mk[o];
        AT(row[F_COMMENT], b) = cm[o];
        AT(row[F_GOOD], b) = gd[o];
        AT(row[F_IN_TARGET], b) = b >= lfirsts[target] && b < lends[target];
        AT(row[F_IN_REGION], b) = in_region[b];
        AT(row[F_HEUR_KEPT], b) = is_kept[b];
        double d = b < first_lo ? (double)(b - first_lo) : b >= last_hi ? (double)(b - last_hi + 1) : 0.0;
        AT(row[F_REGION_DISTANCE], b) = d < -FEATURE_FAR ? -FEATURE_FAR : d > FEATURE_FAR ? FEATURE_FAR : d;
        AT(row[F_OWNER_SHARE], b) = subtree[o];
        AT(row[F_PARENT_SHARE], b) = subtree[lparents[o] > 0 ? lparents[o] : 0];
        AT(row[F_OWNER_BLOCKS], b) = (double)(lends[o] - lfirsts[o]);
        AT(row[F_TARGET_SHARE], b) = subtree[target];
        AT(row[F_ENDS_SENTENCE], b) = ends_with_char_of(text, sentence_ends);
        size_t shape = text_shape(text);
        int repeats = 0;
        if (held != NULL && !is_kept[b] && (shapes[shape / 8] >> (shape % 8) & 1) &&
            (repeats = PySet_Contains(held, text)) < 0)
            goto done;
        AT(row[F_REPEATS_KEPT], b) = repeats;
    }
    /* kept_gap: the distance to the nearest kept block, at most FEATURE_FAR (features._kept_gap) */
    Py_ssize_t last = -1;
    for (Py_ssize_t b = 0; b < n; b++) {
        if (is_kept[b])
            last = b;
        double gap = last >= 0 ? (double)(b - last) : FEATURE_FAR;
        AT(row[F_KEPT_GAP], b) = gap < FEATURE_FAR ? gap : FEATURE_FAR;
    }
    last = -1;
    for (Py_ssize_t b = n - 1; b >= 0; b--) {
        if (is_kept[b])
            last = b;
        if (last >= 0 && (double)(last - b) < AT(row[F_KEPT_GAP], b))
            AT(row[F_KEPT_GAP], b) = (double)(last - b);
    }
    double page_blocks = log1p((double)n), page_log = log1p((double)page_chars),
           region_log = log1p((double)region_chars);
    for (Py_ssize_t b = 0; b < n; b++) {
        AT(row[F_PAGE_BLOCKS], b) = page_blocks;
        AT(row[F_PAGE_LOG_CHARS], b) = page_log;
        AT(row[F_REGION_LOG_CHARS], b) = region_log;
    }
#undef AT
    result = Py_NewRef(Py_None);
done:
    if (have_out)
        PyBuffer_Release(&out);
    Py_XDECREF(held);
    PyMem_Free(kind);
    PyMem_Free(tag);
    PyMem_Free(mk);
    PyMem_Free(cm);
    PyMem_Free(gd);
    PyMem_Free(lchars);
    PyMem_Free(lwords);
    PyMem_Free(lowners);
    PyMem_Free(lparents);
    PyMem_Free(lfirsts);
    PyMem_Free(lends);
    PyMem_Free(depth);
    PyMem_Free(prefix);
    PyMem_Free(subtree);
    PyMem_Free(lweights);
    PyMem_Free(in_region);
    PyMem_Free(is_kept);
    return result;
}

PyDoc_STRVAR(block_neighbours_doc,
             "block_neighbours(out, core, starts, offsets) -> None\n\n"
             "features._neighbours in C: for each offset offsets[i] and each core row core[j] of `out` (a\n"
             "C-contiguous float64 matrix, features x blocks), row starts[i] + j gets the core row's value of\n"
             "the block offsets[i] blocks away, -1.0 where that is before the first block or past the last.");

static PyObject *native_block_neighbours(PyObject *self, PyObject *args) {
    PyObject *out_obj, *core, *starts, *offsets;
    Py_buffer out;
    if (!PyArg_ParseTuple(args, "OO!O!O!", &out_obj, &PyTuple_Type, &core, &PyTuple_Type, &starts, &PyTuple_Type,
                          &offsets))
        return NULL;
    if (PyObject_GetBuffer(out_obj, &out, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND | PyBUF_WRITABLE) < 0)
        return NULL;
    PyObject *result = NULL;
    if (out.ndim != 2 || out.itemsize != sizeof(double) || out.format == NULL || strcmp(out.format, "d") != 0) {
        PyErr_SetString(PyExc_TypeError, "out must be a C-contiguous float64 matrix");
        goto done;
    }
    Py_ssize_t nrows = out.shape[0], n = out.shape[1], ncore = PyTuple_GET_SIZE(core);
    if (PyTuple_GET_SIZE(starts) != PyTuple_GET_SIZE(offsets)) {
        PyErr_SetString(PyExc_ValueError, "block_neighbours: starts and offsets of different lengths");
        goto done;
    }
    Py_ssize_t noff = PyTuple_GET_SIZE(offsets);
    /* every row checked first: the reference copies the core rows before writing any neighbour row */
    for (int pass = 0; pass < 2; pass++)
        for (Py_ssize_t i = 0; i < noff; i++) {
            Py_ssize_t start = PyLong_AsSsize_t(PyTuple_GET_ITEM(starts, i));
            Py_ssize_t off = PyLong_AsSsize_t(PyTuple_GET_ITEM(offsets, i));
            if (PyErr_Occurred())
                goto done;
            if (start < 0 || start + ncore > nrows) {
                PyErr_SetString(PyExc_ValueError, "block_neighbours: a row outside out");
                goto done;
            }
            for (Py_ssize_t j = 0; j < ncore; j++) {
                Py_ssize_t src = PyLong_AsSsize_t(PyTuple_GET_ITEM(core, j));
                if (pass == 0) {
                    if (src < 0 || src >= nrows) {
                        if (!PyErr_Occurred())
                            PyErr_SetString(PyExc_ValueError, "block_neighbours: a row outside out");
                        goto done;
                    }
                    if (src >= start && src < start + ncore) {
                        PyErr_SetString(PyExc_ValueError,
                                        "block_neighbours: a core row among the neighbour rows");
                        goto done;
                    }
                    continue;
                }
                const double *from = (const double *)out.buf + src * n;
                double *to = (double *)out.buf + (start + j) * n;
                for (Py_ssize_t b = 0; b < n; b++) {
                    Py_ssize_t k = b + off;
                    to[b] = k >= 0 && k < n ? from[k] : -1.0;
                }
            }
        }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&out);
    return result;
}

/* ------------------------------------------------------------------------------------------------ */
/* The text of a subtree without its marked elements' (worker/clean/meta/marked.py's unmarked_text_python) */

/* Bytes of text below `root` (its text nodes' UTF-8, as deep_text reads them). */
static size_t text_bytes(Node *root) {
    size_t n = 0;
    Node *node = root->first_child;
    while (node != NULL) {
        if (node->tag_id == cfg.text_id && ((const CharData *)node)->data.data != NULL)
            n += ((const CharData *)node)->data.length;
        node = next_in_subtree(node, root);
    }
    return n;
}

/* Append s[0:n] to `out` with its whitespace runs (str.isspace) as one space, none at the start of `out`:
   *pending says a space is owed before the next non-space. -1 when s is not valid UTF-8. */
static int append_folded(Buf *out, const unsigned char *s, size_t n, int *pending) {
    if (buf_reserve(out, n + 1) < 0)
        return -1;
    size_t i = 0;
    while (i < n) {
        if (s[i] < 0x80) { /* ASCII: no decoding */
            if (ascii_space[s[i]]) {
                *pending = out->n > 0;
                i++;
                continue;
            }
            if (*pending) {
                out->b[out->n++] = ' ';
                *pending = 0;
            }
            size_t j = i + 1; /* the run of ASCII past space (none of it whitespace) is copied as it is */
            while (j < n && s[j] > 0x20 && s[j] < 0x80)
                j++;
            memcpy(out->b + out->n, s + i, j - i);
            out->n += j - i;
            i = j;
            continue;
        }
        Py_UCS4 cp;
        int len = utf8_decode(s + i, n - i, &cp);
        if (len == 0)
            return -1;
        if (Py_UNICODE_ISSPACE(cp)) {
            *pending = out->n > 0;
        } else {
            if (*pending) {
                out->b[out->n++] = ' ';
                *pending = 0;
            }
            memcpy(out->b + out->n, s + i, (size_t)len);
            out->n += (size_t)len;
        }
        i += (size_t)len;
    }
    return 0;
}

PyDoc_STRVAR(in_marked_ancestor_doc,
             "in_marked_ancestor(address, depth, words) -> bool\n\n"
             "Whether the class or the id of one of the `depth` nearest ancestors of the node at `address` holds\n"
             "one of `words` (lower-case ASCII bytes) in any ASCII case (non-elements have neither); the class\n"
             "and id are the last of the name, as selectolax's attributes dict gives them.");

static PyObject *native_in_marked_ancestor(PyObject *self, PyObject *args) {
    unsigned long long address;
    Py_ssize_t depth;
    PyObject *words;
    if (!PyArg_ParseTuple(args, "KnO!", &address, &depth, &PyTuple_Type, &words))
        return NULL;
    if (!cfg.ready) {
        PyErr_SetString(PyExc_RuntimeError, "worker.clean._native is not configured");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(words); i++)
        if (!PyBytes_Check(PyTuple_GET_ITEM(words, i)))
            return PyErr_Format(PyExc_TypeError, "words must be bytes");
    const Node *node = ((const Node *)(uintptr_t)address)->parent;
    for (Py_ssize_t k = 0; k < depth && node != NULL; k++, node = node->parent) {
        if (node->type != NODE_ELEMENT)
            continue;
        static const char *const names[] = {"class", "id"};
        for (int a = 0; a < 2; a++) {
            const unsigned char *v = NULL;
            size_t vn = 0;
            if (!value_of((Node *)node, names[a], strlen(names[a]), 1, &v, &vn) || v == NULL)
                continue;
            for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(words); i++) {
                PyObject *w = PyTuple_GET_ITEM(words, i);
                if (contains_ci(v, vn, PyBytes_AS_STRING(w), (size_t)PyBytes_GET_SIZE(w)))
                    Py_RETURN_TRUE;
            }
        }
    }
    Py_RETURN_FALSE;
}

PyDoc_STRVAR(unmarked_text_doc,
             "unmarked_text(address, tag_ids, min_chars) -> str | None\n\n"
             "text.visible_text(node.text(deep=True), texts) of the node at `address`, whitespace-folded, where\n"
             "texts are those of the elements at and below it with a tag id in `tag_ids` in document order (as\n"
             "marked() lists them); each text of `min_chars` characters or more is cut out at its next\n"
             "occurrence in the text. None when the text is not valid UTF-8 (selectolax would decode it with\n"
             "\"replace\"): the caller runs the Python reference.");

/* Whether text[a:b] (a skipped element's text) occurs nowhere in text[pos:] before `a` (pos <= a): then
   the first occurrence there is its own, at `a`, found without memmem (whose two-way search reads the
   whole needle, a script's text, before it compares: a third of the text fallback's C). An earlier
   occurrence would hold the needle's byte j at j past its start: one of the bytes code is full of and
   text has few (";{}=" in its first 256 bytes), or else its first byte; none of it in text[pos+j:a+j]
   means none. False when that cannot be told: memmem decides. */
static int none_before(const Buf *text, size_t pos, size_t a, size_t b) {
    if (pos == a)
        return 1;
    const unsigned char *needle = text->b + a;
    size_t m = b - a, j = 0;
    for (size_t i = 0; i < m && i < 256; i++)
        if (needle[i] == ';' || needle[i] == '{' || needle[i] == '}' || needle[i] == '=') {
            j = i;
            break;
        }
    return memchr(text->b + pos + j, needle[j], a - pos) == NULL;
}

static PyObject *native_unmarked_text(PyObject *self, PyObject *args) {
    unsigned long long address;
    PyObject *tag_ids;
    Py_ssize_t min_chars;
    if (!PyArg_ParseTuple(args, "KO!n", &address, &PyTuple_Type, &tag_ids, &min_chars))
        return NULL;
    if (!cfg.ready) {
        PyErr_SetString(PyExc_RuntimeError, "worker.clean._native is not configured");
        return NULL;
    }
    uintptr_t tags[WALK_TAGS_MAX];
    Py_ssize_t ntags;
    if (read_tag_ids(tag_ids, tags, &ntags) < 0)
        return NULL;
    Buf text = {0}, out = {0};
    Vec cuts = {0}; /* start and end byte of each marked element's text */
    PyObject *result = NULL;
    Node *root = (Node *)(uintptr_t)address;
    Node *node = root;
    while (node != NULL) {
        if (node->type == NODE_ELEMENT && id_in_set(tags, ntags, node->tag_id)) {
            size_t start = node == root ? 0 : text.n;
            if (vec_push(&cuts, (Py_ssize_t)start) < 0 || vec_push(&cuts, (Py_ssize_t)(start + text_bytes(node))) < 0)
                goto done;
        }
        if (node->tag_id == cfg.text_id) {
            const LexStr *t = &((const CharData *)node)->data;
            if (t->data != NULL && t->length > 0) {
                if (buf_reserve(&text, t->length) < 0)
                    goto done;
                memcpy(text.b + text.n, t->data, t->length);
                text.n += t->length;
            }
        }
        node = next_in_subtree(node, root);
    }
    /* Valid UTF-8 throughout: then a byte search finds what str.find finds (a valid needle matches at
       character boundaries only) and character counts are counts of lead bytes. */
    for (size_t i = 0; i < text.n;) {
        uint64_t word;
        if (i + 8 <= text.n && (memcpy(&word, text.b + i, 8), (word & 0x8080808080808080ull) == 0)) {
            i += 8; /* eight ASCII bytes */
            continue;
        }
        Py_UCS4 cp;
        int len = utf8_decode(text.b + i, text.n - i, &cp);
        if (len == 0) {
            result = Py_NewRef(Py_None);
            goto done;
        }
        i += (size_t)len;
    }
    size_t pos = 0;
    int pending = 0;
    for (Py_ssize_t c = 0; c < cuts.n; c += 2) {
        size_t a = (size_t)cuts.v[c], b = (size_t)cuts.v[c + 1];
        Py_ssize_t chars = 0;
        for (size_t i = a; i < b; i++)
            chars += (text.b[i] & 0xC0) != 0x80;
        if (chars < min_chars)
            continue;
        const unsigned char *k;
        if (b == a)
            k = text.b + pos;
        else if (pos <= a && none_before(&text, pos, a, b))
            k = text.b + a;
        else
            k = memmem(text.b + pos, text.n - pos, text.b + a, b - a);
        if (k == NULL)
            continue;
        if (append_folded(&out, text.b + pos, (size_t)(k - text.b) - pos, &pending) < 0)
            goto done;
        pending = out.n > 0; /* the pieces are joined with a space */
        pos = (size_t)(k - text.b) + (b - a);
    }
    if (append_folded(&out, text.b + pos, text.n - pos, &pending) < 0)
        goto done;
    result = PyUnicode_DecodeUTF8((const char *)out.b, (Py_ssize_t)out.n, "strict");
done:
    PyMem_Free(text.b);
    PyMem_Free(out.b);
    PyMem_Free(cuts.v);
    return result;
}

/* ------------------------------------------------------------------------------------------------ */
/* Repeated signatures (repeats.repeats_python) and block classification (classify.decide_python).    */
/* One call a page each: the per-element and per-block loops of posts / comments / classify.         */

/* A growable array of code points: the page's distinct signatures, end to end. */
typedef struct {
    Py_UCS4 *v;
    Py_ssize_t n, cap;
} Cps;

/* Room for `more` code points after the n in use. */
static int cps_reserve(Cps *c, Py_ssize_t more) {
    if (c->cap - c->n < more) {
        Py_ssize_t cap = c->cap ? c->cap : 1024;
        while (cap - c->n < more)
            cap *= 2;
        Py_UCS4 *v = PyMem_Realloc(c->v, (size_t)cap * sizeof(Py_UCS4));
        if (v == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        c->v = v;
        c->cap = cap;
    }
    return 0;
}

static int cps_put(Cps *c, Py_UCS4 ch) {
    if (cps_reserve(c, 1) < 0)
        return -1;
    c->v[c->n++] = ch;
    return 0;
}

/* Appends repeats._signatures's signature of (tag, cls) to `c`: the tag, ".", and the class attribute's
   first whitespace-separated word (str.split's Py_UNICODE_ISSPACE) without its decimal digits (what the
   regex \d matches in a str: Py_UNICODE_ISDECIMAL). */
static uint64_t cps_hash(const Py_UCS4 *v, Py_ssize_t n);

#define FNV_BASIS 1469598103934665603ULL
#define FNV_STEP(h, ch) (((h) ^ (ch)) * 1099511628211ULL)

static int append_signature(Cps *c, PyObject *tag, PyObject *cls, uint64_t *hash) {
    if (PyUnicode_IS_ASCII(tag) && PyUnicode_IS_ASCII(cls)) {
        if (cps_reserve(c, PyUnicode_GET_LENGTH(tag) + PyUnicode_GET_LENGTH(cls) + 1) < 0)
            return -1;
        /* most pages: ASCII, where the space and digit tests are table lookups and ranges */
        const unsigned char *t = PyUnicode_1BYTE_DATA(tag), *k = PyUnicode_1BYTE_DATA(cls);
        Py_ssize_t nt = PyUnicode_GET_LENGTH(tag), nk = PyUnicode_GET_LENGTH(cls), i = 0;
        Py_UCS4 *out = c->v + c->n;
        uint64_t h = FNV_BASIS; /* cps_hash, as the code points go by */
        for (Py_ssize_t j = 0; j < nt; j++) {
            *out++ = t[j];
            h = FNV_STEP(h, t[j]);
        }
        *out++ = '.';
        h = FNV_STEP(h, '.');
        while (i < nk && ascii_space[k[i]])
            i++;
        for (; i < nk && !ascii_space[k[i]]; i++)
            if (k[i] < '0' || k[i] > '9') {
                *out++ = k[i];
                h = FNV_STEP(h, k[i]);
            }
        c->n = out - c->v;
        *hash = h ^ (h >> 29);
        return 0;
    }
    Py_ssize_t start = c->n;
    int kind = PyUnicode_KIND(tag);
    const void *data = PyUnicode_DATA(tag);
    Py_ssize_t n = PyUnicode_GET_LENGTH(tag);
    for (Py_ssize_t i = 0; i < n; i++)
        if (cps_put(c, PyUnicode_READ(kind, data, i)) < 0)
            return -1;
    if (cps_put(c, '.') < 0)
        return -1;
    kind = PyUnicode_KIND(cls);
    data = PyUnicode_DATA(cls);
    n = PyUnicode_GET_LENGTH(cls);
    Py_ssize_t i = 0;
    while (i < n && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)))
        i++;
    for (; i < n; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (Py_UNICODE_ISSPACE(ch))
            break;
        if (!Py_UNICODE_ISDECIMAL(ch) && cps_put(c, ch) < 0)
            return -1;
    }
    *hash = cps_hash(c->v + start, c->n - start);
    return 0;
}

static uint64_t cps_hash(const Py_UCS4 *v, Py_ssize_t n) {
    uint64_t h = FNV_BASIS;
    for (Py_ssize_t i = 0; i < n; i++)
        h = FNV_STEP(h, v[i]);
    return h ^ (h >> 29);
}

/* Open-addressing tables, sized a power of two at least twice the entries they can get. */
static Py_ssize_t table_size(Py_ssize_t n) {
    Py_ssize_t size = 16;
    while (size < 2 * n + 2)
        size *= 2;
    return size;
}

typedef struct {
    Cps arena;           /* distinct signatures' code points */
    Py_ssize_t *off;     /* per signature id: its start in arena (its end: the next one's start) */
    Py_ssize_t nsig;
    Py_ssize_t *slots;   /* signature ids + 1, 0 empty */
    Py_ssize_t *slot_of; /* per signature id: its slot (to empty the table after a call) */
    uint64_t *hashes;    /* per signature id */
    Py_ssize_t mask;
} SigTable;

/* The id of the signature at arena[start:] (a new one, or an earlier equal one: then it is dropped). */
static Py_ssize_t sig_intern(SigTable *t, Py_ssize_t start, uint64_t h) {
    const Py_UCS4 *v = t->arena.v + start;
    Py_ssize_t n = t->arena.n - start;
    for (Py_ssize_t s = (Py_ssize_t)(h & (uint64_t)t->mask);; s = (s + 1) & t->mask) {
        Py_ssize_t id = t->slots[s] - 1;
        if (id < 0) {
            t->slots[s] = t->nsig + 1;
            t->slot_of[t->nsig] = s;
            t->off[t->nsig] = start;
            t->hashes[t->nsig] = h;
            t->off[t->nsig + 1] = t->arena.n;
            return t->nsig++;
        }
        Py_ssize_t len = t->off[id + 1] - t->off[id];
        if (t->hashes[id] == h && len == n && memcmp(t->arena.v + t->off[id], v, (size_t)n * sizeof(Py_UCS4)) == 0) {
            t->arena.n = start;
            return id;
        }
    }
}

static int compare_ssize(const void *a, const void *b) {
    Py_ssize_t x = *(const Py_ssize_t *)a, y = *(const Py_ssize_t *)b;
    return (x > y) - (x < y);
}

static int read_index(PyObject *list, Py_ssize_t i, Py_ssize_t *out) {
    PyObject *x = PyList_GET_ITEM(list, i);
    if (!PyLong_CheckExact(x))
        return -1;
    *out = PyLong_AsSsize_t(x);
    if (*out == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(repeats_doc,
             "repeats(tags, classes, parents, firsts, ends, root, end, want) -> (count, sig, starts) | None\n\n"
             "repeats.repeats_python: over elements root..end-1, with `want` None the signature most children\n"
             "of one element share and how many; the sorted first blocks of the elements of that signature\n"
             "(or of `want`). None (Python decides) for columns that are not a segmentation's.");

/* After a page of more than 65536 elements or 1M signature code points, the buffers are given back
   rather than kept at that size for the worker's life. (Used inside native_repeats: its statics.) */
#define REPEATS_RELEASE_LARGE()                                                                           \
    do {                                                                                                 \
        if (capacity > (1 << 16) || t.arena.cap > (1 << 20)) {                                           \
            Py_ssize_t **kept[] = {&t.off, &t.slot_of, &t.slots, &sig, &first, &pkeys, &pcount, &pslots, \
                                   &pslot_of};                                                           \
            for (int i = 0; i < 9; i++) {                                                                \
                PyMem_Free(*kept[i]);                                                                    \
                *kept[i] = NULL;                                                                         \
            }                                                                                            \
            PyMem_Free(t.hashes);                                                                        \
            PyMem_Free(t.arena.v);                                                                       \
            t.hashes = NULL;                                                                             \
            t.arena.v = NULL;                                                                            \
            t.arena.cap = t.arena.n = capacity = table_cap = 0;                                          \
        }                                                                                                \
    } while (0)

static PyObject *native_repeats(PyObject *self, PyObject *args) {
    PyObject *tags, *classes, *parents, *firsts, *ends, *want;
    Py_ssize_t root, end;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!nnO", &PyList_Type, &tags, &PyList_Type, &classes, &PyList_Type,
                          &parents, &PyList_Type, &firsts, &PyList_Type, &ends, &root, &end, &want))
        return NULL;
    Py_ssize_t total = PyList_GET_SIZE(tags);
    if (PyList_GET_SIZE(classes) != total || PyList_GET_SIZE(parents) != total || PyList_GET_SIZE(firsts) != total ||
        PyList_GET_SIZE(ends) != total || root < 0 || root >= end || end > total ||
        (want != Py_None && !PyUnicode_CheckExact(want)))
        Py_RETURN_NONE;
    Py_ssize_t n = end - root;
    /* The buffers live from call to call (the GIL is held throughout: nothing here calls Python code),
       grown as pages need; the hash tables are emptied slot by slot after each call, not cleared whole. */
    static SigTable t;
    static Py_ssize_t *sig, *first, *pkeys, *pcount, *pslots, *pslot_of, capacity, table_cap;
    PyObject *starts = NULL;
    int declined = 0;
    Py_ssize_t size = table_size(n + 1), npairs = 0;
    t.nsig = 0;
    t.arena.n = 0;
    if (n + 3 > capacity) {
        Py_ssize_t cap = n + 3 > 2 * capacity ? n + 3 : 2 * capacity;
        Py_ssize_t **grown[] = {&t.off, &t.slot_of, &sig, &first, &pcount, &pslot_of};
        for (int i = 0; i < 6; i++) {
            Py_ssize_t *v = PyMem_Realloc(*grown[i], (size_t)cap * sizeof(Py_ssize_t));
            if (v == NULL)
                return PyErr_NoMemory();
            *grown[i] = v;
        }
        Py_ssize_t *keys = PyMem_Realloc(pkeys, (size_t)cap * 2 * sizeof(Py_ssize_t));
        if (keys == NULL)
            return PyErr_NoMemory();
        pkeys = keys;
        uint64_t *hashes = PyMem_Realloc(t.hashes, (size_t)cap * sizeof(uint64_t));
        if (hashes == NULL)
            return PyErr_NoMemory();
        t.hashes = hashes;
        capacity = cap;
    }
    if (size > table_cap) {
        PyMem_Free(t.slots);
        PyMem_Free(pslots);
        t.slots = PyMem_Calloc((size_t)size, sizeof(Py_ssize_t));
        pslots = PyMem_Calloc((size_t)size, sizeof(Py_ssize_t));
        table_cap = t.slots != NULL && pslots != NULL ? size : 0;
        if (table_cap == 0) {
            PyMem_Free(t.slots);
            PyMem_Free(pslots);
            t.slots = pslots = NULL;
            return PyErr_NoMemory();
        }
    }
    t.mask = size - 1;
    for (Py_ssize_t e = root; e < end; e++) {
        Py_ssize_t f, l;
        sig[e - root] = -1;
        if (read_index(firsts, e, &f) < 0 || read_index(ends, e, &l) < 0) {
            declined = 1;
            goto done;
        }
        if (l <= f)
            continue;
        PyObject *tag = PyList_GET_ITEM(tags, e), *cls = PyList_GET_ITEM(classes, e);
        if (!PyUnicode_CheckExact(tag) || !PyUnicode_CheckExact(cls)) {
            declined = 1;
            goto done;
        }
        Py_ssize_t start = t.arena.n;
        uint64_t hash;
        if (append_signature(&t.arena, tag, cls, &hash) < 0)
            goto done;
        Py_ssize_t id = sig_intern(&t, start, hash);
        sig[e - root] = id;
        first[e - root] = f;
        if (e == root || want != Py_None)
            continue;
        Py_ssize_t p;
        if (read_index(parents, e, &p) < 0) {
            declined = 1;
            goto done;
        }
        uint64_t h = ((uint64_t)p * 0x9E3779B97F4A7C15ULL) ^ ((uint64_t)id * 0xC2B2AE3D27D4EB4FULL);
        h ^= h >> 31;
        for (Py_ssize_t s = (Py_ssize_t)(h & (uint64_t)t.mask);; s = (s + 1) & t.mask) {
            Py_ssize_t k = pslots[s] - 1;
            if (k < 0) {
                pslots[s] = npairs + 1;
                pslot_of[npairs] = s;
                pkeys[2 * npairs] = p;
                pkeys[2 * npairs + 1] = id;
                pcount[npairs++] = 1;
                break;
            }
            if (pkeys[2 * k] == p && pkeys[2 * k + 1] == id) {
                pcount[k]++;
                break;
            }
        }
    }
    Py_ssize_t best = 0, best_id = -1;
    if (want == Py_None) {
        for (Py_ssize_t k = 0; k < npairs; k++) /* first seen first: document order */
            if (pcount[k] > best) {
                best = pcount[k];
                best_id = pkeys[2 * k + 1];
            }
    } else {
        Py_ssize_t start = t.arena.n, n_want = PyUnicode_GET_LENGTH(want);
        int kind = PyUnicode_KIND(want);
        const void *data = PyUnicode_DATA(want);
        for (Py_ssize_t i = 0; i < n_want; i++)
            if (cps_put(&t.arena, PyUnicode_READ(kind, data, i)) < 0)
                goto done;
        uint64_t h = cps_hash(t.arena.v + start, n_want);
        for (Py_ssize_t s = (Py_ssize_t)(h & (uint64_t)t.mask);; s = (s + 1) & t.mask) {
            Py_ssize_t id = t.slots[s] - 1;
            if (id < 0)
                break;
            if (t.hashes[id] == h && t.off[id + 1] - t.off[id] == n_want &&
                memcmp(t.arena.v + t.off[id], t.arena.v + start, (size_t)n_want * sizeof(Py_UCS4)) == 0) {
                best_id = id;
                break;
            }
        }
        t.arena.n = start;
    }
    /* the first blocks of the elements of that signature, sorted, each once */
    Py_ssize_t nstarts = 0;
    for (Py_ssize_t i = 0; best_id >= 0 && i < n; i++)
        if (sig[i] == best_id)
            pkeys[nstarts++] = first[i];
    Py_ssize_t unsorted = 0; /* a segmentation's firsts come in document order: sorted already */
    for (Py_ssize_t i = 1; i < nstarts && !unsorted; i++)
        unsorted = pkeys[i - 1] > pkeys[i];
    if (unsorted)
        qsort(pkeys, (size_t)nstarts, sizeof(Py_ssize_t), compare_ssize);
    /* Out of the shared buffers before any object that the garbage collector tracks is made (a
       collection can run finalizers, which could call this function again): the name (a str is not
       tracked), the starts (copied to memory of this call), the tables emptied. */
    PyObject *name;
    if (want != Py_None)
        name = Py_NewRef(want);
    else if (best_id < 0)
        name = PyUnicode_New(0, 0);
    else
        name = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, t.arena.v + t.off[best_id],
                                         t.off[best_id + 1] - t.off[best_id]);
    Py_ssize_t *mine = name != NULL ? PyMem_Malloc((size_t)(nstarts + 1) * sizeof(Py_ssize_t)) : NULL;
    if (mine != NULL)
        memcpy(mine, pkeys, (size_t)nstarts * sizeof(Py_ssize_t));
    for (Py_ssize_t i = 0; i < t.nsig; i++)
        t.slots[t.slot_of[i]] = 0;
    for (Py_ssize_t k = 0; k < npairs; k++)
        pslots[pslot_of[k]] = 0;
    t.nsig = npairs = 0;
    REPEATS_RELEASE_LARGE();
    if (mine == NULL) {
        if (name != NULL)
            PyErr_NoMemory();
        Py_XDECREF(name);
        return NULL;
    }
    if ((starts = PyList_New(0)) != NULL) {
        for (Py_ssize_t i = 0; i < nstarts; i++) {
            if (i > 0 && mine[i] == mine[i - 1])
                continue;
            PyObject *x = PyLong_FromSsize_t(mine[i]);
            if (x == NULL || PyList_Append(starts, x) < 0) {
                Py_XDECREF(x);
                Py_CLEAR(starts);
                break;
            }
            Py_DECREF(x);
        }
    }
    PyMem_Free(mine);
    if (starts == NULL) {
        Py_DECREF(name);
        return NULL;
    }
    return Py_BuildValue("(nNN)", want != Py_None ? (Py_ssize_t)0 : best, name, starts);
done: /* declined, or out of memory (no Python object made yet) */
    for (Py_ssize_t i = 0; i < t.nsig; i++)
        t.slots[t.slot_of[i]] = 0;
    for (Py_ssize_t k = 0; k < npairs; k++)
        pslots[pslot_of[k]] = 0;
    t.nsig = 0;
    REPEATS_RELEASE_LARGE();
    if (declined && !PyErr_Occurred())
        Py_RETURN_NONE;
    return NULL;
}


PyDoc_STRVAR(positions_doc,
             "positions(items, value) -> list[int] | None\n\n"
             "The indexes of the items equal to `value` (segment.indexes): str items and value only, else None.");

static PyObject *native_positions(PyObject *self, PyObject *args) {
    PyObject *items, *value;
    if (!PyArg_ParseTuple(args, "O!O", &PyList_Type, &items, &value))
        return NULL;
    if (!PyUnicode_CheckExact(value))
        Py_RETURN_NONE;
    Py_ssize_t n = PyList_GET_SIZE(items), len = PyUnicode_GET_LENGTH(value);
    int kind = PyUnicode_KIND(value);
    const void *data = PyUnicode_DATA(value);
    for (Py_ssize_t i = 0; i < n; i++) /* first all items checked: no object made before it declines */
        if (!PyUnicode_CheckExact(PyList_GET_ITEM(items, i)))
            Py_RETURN_NONE;
    PyObject *out = PyList_New(0);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        PyObject *x = PyList_GET_ITEM(items, i);
        /* str equality: the same object, or the same length, storage kind and code units */
        if (x != value && (PyUnicode_GET_LENGTH(x) != len || PyUnicode_KIND(x) != kind ||
                           memcmp(PyUnicode_DATA(x), data, (size_t)(len * kind)) != 0))
            continue;
        PyObject *at = PyLong_FromSsize_t(i);
        if (at == NULL || PyList_Append(out, at) < 0)
            Py_CLEAR(out);
        Py_XDECREF(at);
    }
    return out;
}

/* ------------------------------------------------------------------------------------------------ */
/* A segmentation without some elements' subtrees (segment.cut_blocks_python): the template taken out.  */

typedef struct {
    Py_ssize_t lo, hi;
} Span;

/* Outer subtrees first where two start at one block (segment._outer_first). */
static int span_order(const void *a, const void *b) {
    const Span *x = a, *y = b;
    if (x->lo != y->lo)
        return (x->lo > y->lo) - (x->lo < y->lo);
    return (x->hi < y->hi) - (x->hi > y->hi);
}

/* A new list of index[i]'s values mapped through pos, each int made once (ints[v]); NULL on error. */
static PyObject *remapped(PyObject *index, const Py_ssize_t *pos, PyObject **ints) {
    Py_ssize_t m = PyList_GET_SIZE(index);
    PyObject *out = PyList_New(m);
    for (Py_ssize_t i = 0; out != NULL && i < m; i++) {
        Py_ssize_t v = pos[as_ssize(PyList_GET_ITEM(index, i))]; /* checked by the caller */
        if (ints[v] == NULL && (ints[v] = PyLong_FromSsize_t(v)) == NULL) {
            Py_CLEAR(out);
            break;
        }
        Py_INCREF(ints[v]);
        PyList_SET_ITEM(out, i, ints[v]);
    }
    return out;
}

PyDoc_STRVAR(cut_doc, "cut(firsts, ends, elems, columns) -> (firsts, ends, columns) | None\n\n"
                      "segment.cut_blocks_python: the block columns without the blocks of `elems`' subtrees, firsts and\n"
                      "ends remapped; None (Python decides) for input that is not a valid segmentation's.");

static PyObject *native_cut(PyObject *self, PyObject *args) {
    PyObject *firsts, *ends, *elems, *columns;
    if (!PyArg_ParseTuple(args, "O!O!O!O!", &PyList_Type, &firsts, &PyList_Type, &ends, &PyList_Type, &elems,
                          &PyList_Type, &columns))
        return NULL;
    Py_ssize_t m = PyList_GET_SIZE(firsts), k = PyList_GET_SIZE(elems), ncol = PyList_GET_SIZE(columns);
    if (PyList_GET_SIZE(ends) != m || ncol == 0 || !PyList_Check(PyList_GET_ITEM(columns, 0)))
        Py_RETURN_NONE;
    Py_ssize_t n = PyList_GET_SIZE(PyList_GET_ITEM(columns, 0));
    for (Py_ssize_t c = 0; c < ncol; c++) {
        PyObject *col = PyList_GET_ITEM(columns, c);
        if (!PyList_Check(col) || PyList_GET_SIZE(col) != n)
            Py_RETURN_NONE;
    }
    /* every first and end a block index up to n: then pos[] below is defined for each */
    for (Py_ssize_t i = 0; i < m; i++)
        if (index_at(firsts, i, 0, n) < 0 || index_at(ends, i, 0, n) < 0)
            Py_RETURN_NONE;
    Span *spans = PyMem_Malloc((size_t)(k ? k : 1) * sizeof(Span));
    Py_ssize_t *pos = PyMem_Malloc((size_t)(n + 1) * sizeof(Py_ssize_t));
    PyObject **ints = PyMem_Calloc((size_t)(n + 1), sizeof(PyObject *));
    PyObject *result = NULL, *new_firsts = NULL, *new_ends = NULL, *new_columns = NULL;
    if (spans == NULL || pos == NULL || ints == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t j = 0; j < k; j++) {
        Py_ssize_t e = index_at(elems, j, 0, m - 1);
        if (e < 0)
            goto decline;
        spans[j].lo = as_ssize(PyList_GET_ITEM(firsts, e));
        spans[j].hi = as_ssize(PyList_GET_ITEM(ends, e));
        if (spans[j].hi < spans[j].lo)
            goto decline; /* no element's subtree: the reference's ranges and repeats decide */
    }
    qsort(spans, (size_t)k, sizeof(Span), span_order);
    /* pos[b]: block b's new index, or for a removed block where its range was cut out; the kept blocks are
       the ranges between the removed ones (subtrees nest or are disjoint). */
    Py_ssize_t prev = 0, kept = 0, nkeep = 0;
    Span *keep = spans; /* kept ranges overwrite the spans already read: there is at most one per span */
    Span last = {0, 0};
    for (Py_ssize_t j = 0; j < k; j++) {
        Span s = spans[j];
        if (s.lo < prev)
            continue; /* inside a subtree already removed */
        for (Py_ssize_t b = prev; b < s.lo; b++)
            pos[b] = kept + b - prev;
        keep[nkeep++] = (Span){prev, s.lo};
        kept += s.lo - prev;
        for (Py_ssize_t b = s.lo; b < s.hi; b++)
            pos[b] = kept;
        prev = s.hi;
    }
    for (Py_ssize_t b = prev; b <= n; b++)
        pos[b] = kept + b - prev;
    last = (Span){prev, n};
    Py_ssize_t total = kept + n - prev;
    new_firsts = remapped(firsts, pos, ints);
    new_ends = new_firsts != NULL ? remapped(ends, pos, ints) : NULL;
    new_columns = new_ends != NULL ? PyList_New(ncol) : NULL;
    if (new_columns == NULL)
        goto done;
    for (Py_ssize_t c = 0; c < ncol; c++) {
        PyObject *col = PyList_GET_ITEM(columns, c), *out = PyList_New(total);
        if (out == NULL)
            goto done;
        PyList_SET_ITEM(new_columns, c, out);
        Py_ssize_t at = 0;
        for (Py_ssize_t r = 0; r <= nkeep; r++) {
            Span range = r < nkeep ? keep[r] : last;
            for (Py_ssize_t b = range.lo; b < range.hi; b++) {
                PyObject *x = PyList_GET_ITEM(col, b);
                Py_INCREF(x);
                PyList_SET_ITEM(out, at++, x);
            }
        }
    }
    result = PyTuple_Pack(3, new_firsts, new_ends, new_columns);
    goto done;
decline:
    result = Py_None;
    Py_INCREF(result);
done:
    for (Py_ssize_t v = 0; ints != NULL && v <= n; v++)
        Py_XDECREF(ints[v]);
    PyMem_Free(ints);
    PyMem_Free(pos);
    PyMem_Free(spans);
    Py_XDECREF(new_firsts);
    Py_XDECREF(new_ends);
    Py_XDECREF(new_columns);
    return result;
}

/* Block classification (classify.decide_python): jusText's classes, context smoothing, the flat comment
   tail, the no-anchor fallback and the sentences that stand alone, over the region's blocks in one call. Thresholds, characters, the
   copyright anchors and the three patterns (boilerplate line, copyright, comment heading: their match or
   search methods, called only for the blocks that reach them) come from classify.py through
   configure_classify: nothing of the heuristics is spelled here. */

enum { C_GOOD, C_BAD, C_SHORT, C_NEAR, C_PASSED }; /* C_PASSED: no class (classify._PASSED) */

static struct {
    double length_low, length_high, max_ld, short_max_ld, long_max_ld, nostop_good,
        fallback_share, linked_max_ld, marks_max_share, max_heading_distance, comment_heading_max, boiler_max,
        copyright_max, sentence_box_min, comment_heading_max_ld, comment_link_after, closing_min, passed_max,
        passed_min_words, unspaced;
    int edge;
    PyObject *punct, *ends;   /* str: sentence punctuation, sentence-ending characters */
    PyObject *scripts;        /* str: UNSPACED_SCRIPTS, each range's first and last character */
    PyObject *anchors;        /* tuple of str: copyright anchors, in lower case */
    PyObject *boiler, *copyright, *comment_heading; /* the patterns' match / search / match methods */
    PyObject *heading, *paragraph;                  /* the kinds the rules name */
} cl;

static int class_of(PyObject *name, int *out) {
    static const char *names[] = {"good", "bad", "short", "near"};
    for (int i = 0; i < 4; i++)
        if (PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, names[i]) == 0) {
            *out = i;
            return 0;
        }
    PyErr_Format(PyExc_ValueError, "not a class: %R", name);
    return -1;
}

PyDoc_STRVAR(configure_classify_doc,
             "configure_classify(numbers, edge, punct, ends, anchors, boiler, copyright, comment_heading,\n"
             "                   heading, paragraph, scripts)\n\n"
             "classify.py's thresholds (20 numbers in the order of the C struct), classes, characters, the\n"
             "copyright anchors and the three patterns' match / search / match methods.");

static PyObject *native_configure_classify(PyObject *self, PyObject *args) {
    PyObject *numbers, *edge, *punct, *ends, *anchors, *boiler, *copyright, *comment_heading, *heading, *paragraph,
        *scripts;
    if (!PyArg_ParseTuple(args, "O!OUUO!OOOUUU", &PyTuple_Type, &numbers, &edge, &punct, &ends, &PyTuple_Type,
                          &anchors, &boiler, &copyright, &comment_heading, &heading, &paragraph, &scripts))
        return NULL;
    if (PyUnicode_GET_LENGTH(scripts) % 2)
        return PyErr_Format(PyExc_ValueError, "scripts: pairs of characters");
    double *slots[] = {&cl.length_low,   &cl.length_high,
                       &cl.max_ld,       &cl.short_max_ld,    &cl.long_max_ld,       &cl.nostop_good,
                       &cl.fallback_share, &cl.linked_max_ld, &cl.marks_max_share,   &cl.max_heading_distance,
                       &cl.comment_heading_max, &cl.boiler_max, &cl.copyright_max,   &cl.sentence_box_min,
                       &cl.comment_heading_max_ld, &cl.comment_link_after, &cl.closing_min,
                       &cl.passed_max,   &cl.passed_min_words, &cl.unspaced};
    if (PyTuple_GET_SIZE(numbers) != 20)
        return PyErr_Format(PyExc_ValueError, "20 numbers, not %zd", PyTuple_GET_SIZE(numbers));
    for (Py_ssize_t i = 0; i < 20; i++) {
        double v = PyFloat_AsDouble(PyTuple_GET_ITEM(numbers, i));
        if (v == -1.0 && PyErr_Occurred())
            return NULL;
        *slots[i] = v;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(anchors); i++)
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(anchors, i)))
            return PyErr_Format(PyExc_TypeError, "anchors must be str");
    if (class_of(edge, &cl.edge) < 0)
        return NULL;
    PyObject **objs[] = {&cl.punct, &cl.ends, &cl.anchors, &cl.boiler, &cl.copyright, &cl.comment_heading,
                         &cl.heading, &cl.paragraph, &cl.scripts};
    PyObject *vals[] = {punct, ends, anchors, boiler, copyright, comment_heading, heading, paragraph, scripts};
    for (int i = 0; i < 9; i++)
        Py_XSETREF(*objs[i], Py_NewRef(vals[i]));
    Py_RETURN_NONE;
}

/* Is any character of `text` in `set`? */
static int has_char_of(PyObject *text, PyObject *set) {
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), ns = PyUnicode_GET_LENGTH(set);
    int skind = PyUnicode_KIND(set);
    const void *sdata = PyUnicode_DATA(set);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        for (Py_ssize_t j = 0; j < ns; j++)
            if (PyUnicode_READ(skind, sdata, j) == c)
                return 1;
    }
    return 0;
}

static int ends_with_char_of(PyObject *text, PyObject *set) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (n == 0)
        return 0;
    Py_UCS4 last = PyUnicode_READ_CHAR(text, n - 1);
    for (Py_ssize_t j = 0; j < PyUnicode_GET_LENGTH(set); j++)
        if (PyUnicode_READ_CHAR(set, j) == last)
            return 1;
    return 0;
}

/* A pattern's match or search method called: 1 (a match), 0 (None), or -1 with its exception. */
static int test_of(PyObject *fn, PyObject *text) {
    PyObject *r = PyObject_CallOneArg(fn, text);
    if (r == NULL)
        return -1;
    int v = r != Py_None;
    Py_DECREF(r);
    return v;
}

/* classify._boilerplate_line: the pattern matched on text.lower() (for an ASCII text, ASCII's lower case,
   made here; other texts' by str.lower). */
static int boiler_of(PyObject *text) {
    PyObject *low;
    if (PyUnicode_IS_ASCII(text)) {
        Py_ssize_t n = PyUnicode_GET_LENGTH(text);
        if ((low = PyUnicode_New(n, 127)) == NULL)
            return -1;
        const unsigned char *s = PyUnicode_1BYTE_DATA(text);
        unsigned char *d = PyUnicode_1BYTE_DATA(low);
        for (Py_ssize_t i = 0; i < n; i++)
            d[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (unsigned char)(s[i] + 32) : s[i];
    } else if ((low = PyObject_CallMethod(text, "lower", NULL)) == NULL)
        return -1;
    int v = test_of(cl.boiler, low);
    Py_DECREF(low);
    return v;
}

/* Is one of the anchors in text.lower()? Read with ASCII capitals lower-cased and every other character as
   it is, which is text.lower()'s reading wherever an anchor can be: no character but an anchor's own and
   its ASCII capital lower-cases to one holding an anchor's character (test_classify checks every code
   point), so an anchor in text.lower() stands on as many characters of the text, each its own or its
   capital. An ASCII text (most) is lower-cased into a buffer and searched with memmem. */
static int holds_anchor(PyObject *text) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), nanchors = PyTuple_GET_SIZE(cl.anchors);
    if (PyUnicode_IS_ASCII(text) && n <= 256) {
        const unsigned char *s = PyUnicode_1BYTE_DATA(text);
        unsigned char low[256];
        for (Py_ssize_t i = 0; i < n; i++)
            low[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (unsigned char)(s[i] + 32) : s[i];
        for (Py_ssize_t a = 0; a < nanchors; a++) {
            PyObject *anchor = PyTuple_GET_ITEM(cl.anchors, a);
            Py_ssize_t m = PyUnicode_GET_LENGTH(anchor);
            /* an anchor beyond ASCII is in no ASCII text */
            if (PyUnicode_IS_ASCII(anchor) &&
                (m == 0 || (m <= n && memmem(low, (size_t)n, PyUnicode_1BYTE_DATA(anchor), (size_t)m) != NULL)))
                return 1;
        }
        return 0;
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    for (Py_ssize_t a = 0; a < nanchors; a++)
        if (PyUnicode_GET_LENGTH(PyTuple_GET_ITEM(cl.anchors, a)) == 0)
            return 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c >= 'A' && c <= 'Z')
            c += 32;
        for (Py_ssize_t a = 0; a < nanchors; a++) {
            PyObject *anchor = PyTuple_GET_ITEM(cl.anchors, a);
            Py_ssize_t m = PyUnicode_GET_LENGTH(anchor), j = 1;
            if (PyUnicode_READ_CHAR(anchor, 0) != c || i + m > n)
                continue;
            for (; j < m; j++) {
                Py_UCS4 d = PyUnicode_READ(kind, data, i + j);
                if (d >= 'A' && d <= 'Z')
                    d += 32;
                if (d != PyUnicode_READ_CHAR(anchor, j))
                    break;
            }
            if (j == m)
                return 1;
        }
    }
    return 0;
}

/* classify._copyright: the pattern searched only where one of the anchors is. */
static int copyright_of(PyObject *text) {
    return holds_anchor(text) ? test_of(cl.copyright, text) : 0;
}

typedef struct {
    Py_ssize_t n;
    PyObject **texts;
    double *chars, *ld;
    Py_ssize_t *words, *lw, *stops;
    unsigned char *heading, *paragraph, *bad;
} ClBlocks;

/* classify.classify: the context-free class of block k, or -1 with an exception, -2: leave to Python.
   `good_share`: the language's good stopword density, read only with `has_lang`. */
static int initial_class(const ClBlocks *b, Py_ssize_t k, int has_lang, double good_share) {
    if (b->bad[k])
        return C_BAD;
    PyObject *text = b->texts[k];
    double chars = b->chars[k], ld = b->ld[k], eff = ld;
    if (ld > cl.max_ld && ld <= cl.linked_max_ld && chars >= cl.length_low && b->paragraph[k] &&
        ends_with_char_of(text, cl.ends))
        eff = 0.0; /* _sentence_link_density */
    /* is_boilerplate */
    if (eff > cl.max_ld && !(chars > cl.length_high && eff <= cl.long_max_ld))
        return C_BAD;
    if (chars < cl.boiler_max) {
        int v = boiler_of(text);
        if (v != 0)
            return v < 0 ? -1 : C_BAD;
    }
    if (chars < cl.copyright_max) {
        int v = copyright_of(text);
        if (v != 0)
            return v < 0 ? -1 : C_BAD;
    }
    if (chars < cl.length_low)
        return b->lw[k] && ld > cl.short_max_ld ? C_BAD : C_SHORT;
    if (has_lang) {
        if (b->words[k] == 0)
            return -2; /* Python's division raises */
        /* under the good share a long block is near-good: its neighbours decide */
        return (double)b->stops[k] / (double)b->words[k] >= good_share && chars > cl.length_high ? C_GOOD : C_NEAR;
    }
    /* text of a script that does not space words reads as sentences (UNSPACED_CHARS_PER_WORD) */
    if (chars < cl.nostop_good)
        return C_NEAR;
    return has_char_of(text, cl.punct) || (chars > cl.unspaced * (double)b->words[k] && count_in(text, cl.scripts, 1))
               ? C_GOOD
               : C_NEAR;
}

/* classify._good_text_follows */
static int good_follows(const ClBlocks *b, const unsigned char *cls, Py_ssize_t i) {
    double dist = 0;
    for (Py_ssize_t j = i + 1; j < b->n; j++) {
        if (cls[j] == C_GOOD)
            return 1;
        dist += b->chars[j];
        if (dist > cl.max_heading_distance)
            return 0;
    }
    return 0;
}

/* classify._nearest: the class of the nearest block before / after each whose class is in `accept`
   (a bit set of classes). */
static void nearest(const unsigned char *cls, Py_ssize_t n, int accept, unsigned char *prev, unsigned char *next) {
    unsigned char last = (unsigned char)cl.edge;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (prev != NULL)
            prev[i] = last;
        if (accept & (1 << cls[i]))
            last = cls[i];
    }
    last = (unsigned char)cl.edge;
    for (Py_ssize_t i = n - 1; i >= 0; i--) {
        next[i] = last;
        if (accept & (1 << cls[i]))
            last = cls[i];
    }
}

/* classify.smooth: `initial` into `cls`; `tmp` holds 7 * n. */
static void smooth_classes(const ClBlocks *b, const unsigned char *initial, unsigned char *cls, unsigned char *tmp) {
    Py_ssize_t n = b->n;
    unsigned char *prev = tmp, *next = tmp + n, *prev_n = tmp + 2 * n, *next_n = tmp + 3 * n;
    unsigned char *prev_p = tmp + 4 * n, *next_p = tmp + 5 * n, *passing = tmp + 6 * n;
    memcpy(cls, initial, (size_t)n);
    for (Py_ssize_t i = 0; i < n; i++)
        if (b->heading[i] && cls[i] == C_SHORT && good_follows(b, cls, i))
            cls[i] = C_NEAR;
    int good_bad = (1 << C_GOOD) | (1 << C_BAD);
    nearest(cls, n, good_bad, prev, next);
    nearest(cls, n, good_bad | (1 << C_NEAR), prev_n, next_n);
    /* classify._passing_buttons: the short bad link lines classless */
    for (Py_ssize_t i = 0; i < n; i++)
        passing[i] = cls[i] == C_BAD && b->chars[i] < cl.passed_max && b->ld[i] > cl.max_ld ? C_PASSED : cls[i];
    nearest(passing, n, good_bad, prev_p, next_p);
    for (Py_ssize_t i = 0; i < n; i++) { /* each short block from its neighbours before any changed */
        if (cls[i] != C_SHORT)
            continue;
        if ((prev[i] == C_GOOD && next[i] == C_GOOD) ||
            (prev_p[i] == C_GOOD && next_p[i] == C_GOOD && !b->lw[i] && (double)b->words[i] >= cl.passed_min_words))
            cls[i] = C_GOOD;
        else if (prev[i] == C_BAD && next[i] == C_BAD)
            cls[i] = C_BAD;
        else if ((prev[i] == C_BAD && prev_n[i] == C_NEAR) || (next[i] == C_BAD && next_n[i] == C_NEAR))
            cls[i] = C_GOOD;
        else
            cls[i] = C_BAD;
    }
    nearest(cls, n, good_bad, NULL, next);
    unsigned char last = (unsigned char)cl.edge;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (cls[i] == C_NEAR)
            cls[i] = last == C_BAD && next[i] == C_BAD ? C_BAD : C_GOOD;
        last = cls[i];
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (b->heading[i] && cls[i] == C_BAD && initial[i] != C_BAD && good_follows(b, cls, i))
            cls[i] = C_GOOD;
}

/* marked[owner] as 0 / 1, or -1 where it is not a bool of the list. */
static int flag_at(PyObject *flags, Py_ssize_t owner) {
    if (owner < 0 || owner >= PyList_GET_SIZE(flags))
        return -1;
    PyObject *x = PyList_GET_ITEM(flags, owner);
    return x == Py_True ? 1 : x == Py_False ? 0 : -1;
}

PyDoc_STRVAR(decide_doc,
             "decide(texts, kinds, chars, words, link_words, link_density, stop_words, idx, owners, marked,\n"
             "       comment, good_share) -> (kept, cut) | None\n\n"
             "classify.decide_python; None (Python decides) for columns it does not expect. good_share: None\n"
             "or the language's good stopword density, a float.");

static PyObject *native_decide(PyObject *self, PyObject *args) {
    PyObject *texts, *kinds, *chars, *words, *lw, *ld, *stops, *idx, *owners, *marked, *comment, *good;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!O!O!OOO", &PyList_Type, &texts, &PyList_Type, &kinds, &PyList_Type,
                          &chars, &PyList_Type, &words, &PyList_Type, &lw, &PyList_Type, &ld, &PyList_Type, &stops,
                          &PyList_Type, &idx, &PyList_Type, &owners, &marked, &comment, &good))
        return NULL;
    if (cl.boiler == NULL)
        return PyErr_Format(PyExc_RuntimeError, "configure_classify first");
    Py_ssize_t n = PyList_GET_SIZE(texts);
    PyObject *cols[] = {kinds, chars, words, lw, ld, stops, idx};
    for (int c = 0; c < 7; c++)
        if (PyList_GET_SIZE(cols[c]) != n)
            Py_RETURN_NONE;
    if ((marked != Py_None && !PyList_Check(marked)) || (comment != Py_None && !PyList_Check(comment)))
        Py_RETURN_NONE;
    /* the language's good stopword density: a float, or None without a language (anything else: Python) */
    int has_lang = good != Py_None;
    double good_share = 0;
    if (has_lang) {
        if (!PyFloat_CheckExact(good))
            Py_RETURN_NONE;
        good_share = PyFloat_AS_DOUBLE(good);
    }
    ClBlocks b = {n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    size_t m = (size_t)n + 1;
    b.texts = PyMem_Malloc(m * sizeof(PyObject *));
    b.chars = PyMem_Malloc(m * sizeof(double));
    b.ld = PyMem_Malloc(m * sizeof(double));
    b.words = PyMem_Malloc(m * sizeof(Py_ssize_t));
    b.lw = PyMem_Malloc(m * sizeof(Py_ssize_t));
    b.stops = PyMem_Malloc(m * sizeof(Py_ssize_t));
    Py_ssize_t *ids = PyMem_Malloc(m * sizeof(Py_ssize_t)), *own = PyMem_Malloc(m * sizeof(Py_ssize_t));
    unsigned char *flags = PyMem_Malloc(m * 12); /* heading, paragraph, bad, initial, cls, 7 of tmp */
    PyObject *result = NULL, *kept = NULL;
    int declined = 0;
    if (b.texts == NULL || b.chars == NULL || b.ld == NULL || b.words == NULL || b.lw == NULL || b.stops == NULL ||
        ids == NULL || own == NULL || flags == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    b.heading = flags;
    b.paragraph = flags + n;
    b.bad = flags + 2 * n;
    unsigned char *initial = flags + 3 * n, *cls = flags + 4 * n, *tmp = flags + 5 * n;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *text = PyList_GET_ITEM(texts, k), *kind = PyList_GET_ITEM(kinds, k), *x = PyList_GET_ITEM(ld, k);
        Py_ssize_t c;
        if (!PyUnicode_CheckExact(text) || !PyUnicode_CheckExact(kind) || !PyFloat_CheckExact(x) ||
            read_index(chars, k, &c) < 0 || read_index(words, k, &b.words[k]) < 0 || read_index(lw, k, &b.lw[k]) < 0 ||
            read_index(stops, k, &b.stops[k]) < 0 || read_index(idx, k, &ids[k]) < 0 || ids[k] < 0 ||
            ids[k] >= PyList_GET_SIZE(owners) || read_index(owners, ids[k], &own[k]) < 0) {
            declined = 1;
            goto done;
        }
        /* counts past 2**40 (no page has them) are left to Python: sums of doubles stay exact below */
        const Py_ssize_t lim = (Py_ssize_t)1 << 40;
        if (c > lim || c < -lim || b.words[k] > lim || b.words[k] < -lim || b.stops[k] > lim || b.stops[k] < -lim) {
            declined = 1;
            goto done;
        }
        b.texts[k] = text;
        b.chars[k] = (double)c;
        b.ld[k] = PyFloat_AS_DOUBLE(x);
        b.heading[k] = kind == cl.heading || PyUnicode_Compare(kind, cl.heading) == 0;
        b.paragraph[k] = kind == cl.paragraph || PyUnicode_Compare(kind, cl.paragraph) == 0;
    }
    /* _marks_take_most: marks never delete most of the container's prose */
    int use_marked = marked != Py_None;
    if (use_marked) {
        double total = 0, in_marks = 0;
        for (Py_ssize_t k = 0; k < n; k++) {
            int f = flag_at(marked, own[k]);
            if (f < 0) {
                declined = 1;
                goto done;
            }
            double prose = b.chars[k] >= cl.length_low ? b.chars[k] : 0;
            total += prose;
            if (f)
                in_marks += prose;
        }
        if (total > 0 && in_marks > cl.marks_max_share * total)
            use_marked = 0;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        int f = use_marked ? flag_at(marked, own[k]) : 0, g = comment != Py_None ? flag_at(comment, own[k]) : 0;
        if (f < 0 || g < 0) {
            declined = 1;
            goto done;
        }
        b.bad[k] = (unsigned char)(f || g);
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        int c = initial_class(&b, k, has_lang, good_share);
        if (c < 0) {
            declined = c == -2;
            goto done;
        }
        initial[k] = (unsigned char)c;
    }
    smooth_classes(&b, initial, cls, tmp);
    /* comment_tail */
    Py_ssize_t cut = n;
    int seen_good = 0;
    /* good characters before and after block k, kept as the loop goes (classify.comment_tail) */
    double before = 0, after = 0;
    for (Py_ssize_t k = 0; k < n; k++)
        if (cls[k] == C_GOOD)
            after += (double)b.chars[k];
    for (Py_ssize_t k = 0; k < n; k++) {
        double good = cls[k] == C_GOOD ? (double)b.chars[k] : 0;
        after -= good;
        if (cls[k] == C_GOOD && !b.heading[k])
            seen_good = 1;
        else if (seen_good && (b.heading[k] || cls[k] != C_GOOD) && b.chars[k] <= cl.comment_heading_max) {
            int v = test_of(cl.comment_heading, b.texts[k]);
            if (v < 0)
                goto done;
            /* a linked one is passed over when the article goes on after it */
            if (v && !(b.ld[k] > cl.comment_heading_max_ld && after > cl.comment_link_after * before)) {
                cut = k;
                break;
            }
        }
        before += good;
    }
    /* the no-anchor fallback, then near-good sentences of their own */
    double kept_chars = 0, usable_chars = 0;
    for (Py_ssize_t k = 0; k < cut; k++) {
        if (cls[k] == C_GOOD)
            kept_chars += b.chars[k];
        if (initial[k] != C_BAD)
            usable_chars += b.chars[k];
    }
    if (kept_chars < cl.fallback_share * usable_chars)
        for (Py_ssize_t k = 0; k < cut; k++)
            cls[k] = initial[k] != C_BAD ? C_GOOD : C_BAD;
    for (Py_ssize_t k = 0; k < cut; k++)
        if (initial[k] == C_NEAR && cls[k] == C_BAD && b.chars[k] >= cl.sentence_box_min && !b.lw[k] &&
            ends_with_char_of(b.texts[k], cl.ends))
            cls[k] = C_GOOD;
    /* a short sentence closing kept text (left to right: one closing line may follow another) */
    for (Py_ssize_t k = 1; k < cut; k++)
        if (initial[k] == C_SHORT && cls[k] == C_BAD && cls[k - 1] == C_GOOD && b.paragraph[k] && !b.lw[k] &&
            b.chars[k] >= cl.closing_min && ends_with_char_of(b.texts[k], cl.ends))
            cls[k] = C_GOOD;
    if ((kept = PyList_New(0)) == NULL)
        goto done;
    for (Py_ssize_t k = 0; k < cut; k++)
        if (cls[k] == C_GOOD && PyList_Append(kept, PyList_GET_ITEM(idx, k)) < 0)
            goto done;
    result = Py_BuildValue("(On)", kept, cut);
done:
    PyMem_Free(b.texts);
    PyMem_Free(b.chars);
    PyMem_Free(b.ld);
    PyMem_Free(b.words);
    PyMem_Free(b.lw);
    PyMem_Free(b.stops);
    PyMem_Free(ids);
    PyMem_Free(own);
    PyMem_Free(flags);
    Py_XDECREF(kept);
    if (declined && result == NULL && !PyErr_Occurred())
        Py_RETURN_NONE;
    return result;
}

/* ------------------------------------------------------------------------------------------------ */
/* The metadata's scans with their <meta> elements read here (worker/clean/meta/collect.py's
   scan_python)                                                                                       */

/* select()'s elements, except that a <meta> (most of what a head holds, and most of them name keys the
   extractor never reads: viewport, theme-color, fb:app_id...) is not made a node whose every attribute
   Python reads into a dict: its (key, content) is given instead, once per compound that names it, and
   only when the key is one of `wanted`, as collect.py's _meta_pair reads it: content = the last
   "content" attribute's value (none: nothing given); the key = the first non-empty of the last
   "property", "name", "itemprop", "http-equiv" values (none: nothing given), stripped and lower-cased
   (str.strip, str.lower), and a key starting with one of `prefixes` cut after its last "/", then after
   its last ":". Keys of ASCII bytes (MAPPED_MAX at most) are read here; any other goes through
   `normalize` (the reference's own function: str.lower changes characters beyond ASCII in ways not worth
   copying). Elements of other tags (not of `by_tag`: those _dispatch reads by their tag) whose itemprop
   is none _itemprop reads are left out too. */


struct MetaRead {
    uintptr_t meta_id;
    PyObject *wanted;   /* frozenset of str */
    PyObject *prefixes; /* tuple of bytes (ASCII, lower case) */
    PyObject *normalize;
    WalkTags by_tag;     /* tags read whatever their itemprop (in .skip) */
    PyObject *itemprops; /* frozenset of str: the itemprops read (lower case) */
};

/* A str made of s[0:n] (a <meta> key, an itemprop) as the reference makes it: bytes of ASCII (at most
   MAPPED_MAX) by `ascii` into a buffer (its length returned), any other decoded and given to `python`. */
enum { MAPPED_MAX = 256 };
typedef size_t (*AsciiMap)(const unsigned char *s, size_t n, const MetaRead *m, char *buf);
typedef PyObject *(*StrMap)(PyObject *s, const MetaRead *m);

static PyObject *mapped_str(const unsigned char *s, size_t n, AsciiMap ascii, StrMap python, const MetaRead *m) {
    int is_ascii = n <= MAPPED_MAX;
    for (size_t i = 0; i < n && is_ascii; i++)
        is_ascii = s[i] < 0x80;
    if (is_ascii) {
        char buf[MAPPED_MAX];
        return PyUnicode_FromStringAndSize(buf, (Py_ssize_t)ascii(s, n, m, buf));
    }
    PyObject *raw = PyUnicode_DecodeUTF8((const char *)s, (Py_ssize_t)n, "replace");
    PyObject *out = raw != NULL ? python(raw, m) : NULL;
    Py_XDECREF(raw);
    return out;
}

/* Whether `str` (a new reference, or NULL on an error) is in `set`: 1, 0, -1 on an error. */
static int str_in(PyObject *str, PyObject *set) {
    if (str == NULL)
        return -1;
    int found = PySet_Contains(set, str);
    Py_DECREF(str);
    return found;
}

static size_t meta_key_lower(const unsigned char *s, size_t n, const MetaRead *m, char *buf) {
    for (size_t i = 0; i < n; i++)
        buf[i] = (char)ascii_fold(s[i]);
    return n;
}

static PyObject *str_lower(PyObject *s, const MetaRead *m) { return PyObject_CallMethod(s, "lower", NULL); }

/* Whether an element not of `by_tag` is left out: it has an itemprop whose str.lower() is none of
   `itemprops` (a valueless one reads as ""). 1, 0, -1 on an error. */
static int itemprop_unread(Node *el, const MetaRead *m) {
    const unsigned char *v = NULL;
    size_t vn = 0;
    if (id_in_set(m->by_tag.skip, m->by_tag.nskip, el->tag_id) || !value_of(el, "itemprop", 8, 1, &v, &vn))
        return 0;
    int read = str_in(mapped_str(v, v != NULL ? vn : 0, meta_key_lower, str_lower, m), m->itemprops);
    return read < 0 ? -1 : !read;
}

/* The key of ASCII bytes k[0:n], as str.strip().lower() and the prefix cut make it, into buf; its
   length. */
static size_t meta_ascii_key(const unsigned char *k, size_t n, const MetaRead *m, char *buf) {
    size_t a = 0, b = n;
    while (a < b && ascii_space[k[a]])
        a++;
    while (b > a && ascii_space[k[b - 1]])
        b--;
    size_t len = b - a;
    for (size_t i = 0; i < len; i++)
        buf[i] = (char)ascii_fold(k[a + i]);
    for (Py_ssize_t p = 0; p < PyTuple_GET_SIZE(m->prefixes); p++) {
        PyObject *prefix = PyTuple_GET_ITEM(m->prefixes, p);
        size_t pn = (size_t)PyBytes_GET_SIZE(prefix);
        if (pn > len || memcmp(buf, PyBytes_AS_STRING(prefix), pn) != 0)
            continue;
        size_t start = 0; /* key.rsplit("/", 1)[-1].rsplit(":", 1)[-1] */
        for (size_t i = 0; i < len; i++)
            if (buf[i] == '/')
                start = i + 1;
        for (size_t i = start; i < len; i++)
            if (buf[i] == ':')
                start = i + 1;
        memmove(buf, buf + start, len - start);
        return len - start;
    }
    return len;
}

static PyObject *key_normalize(PyObject *s, const MetaRead *m) { return PyObject_CallOneArg(m->normalize, s); }

/* The attributes a <meta> is read by, in the order its key is taken from them, then its content. */
static const char *const META_NAMES[] = {"property", "name", "itemprop", "http-equiv", "content"};
enum { META_KEY_NAMES = 4, META_CONTENT = 4, META_NAMES_N = 5 };

/* (key, content) of a <meta>, None when it gives no key of `wanted` or no content, NULL on an error. Its
   attributes are read in one pass, the last of each name (as selectolax's attributes dict keeps it). */
static PyObject *meta_pair(Node *el, const MetaRead *m) {
    const unsigned char *vals[META_NAMES_N] = {NULL};
    size_t lens[META_NAMES_N] = {0};
    for (void *at = first_attr(el); at != NULL; at = next_attr(at)) {
        size_t n = 0;
        const unsigned char *an = attr_name(at, &n);
        if (an == NULL)
            continue;
        for (int i = 0; i < META_NAMES_N; i++)
            if (n == strlen(META_NAMES[i]) && memcmp(an, META_NAMES[i], n) == 0) {
                size_t vn = 0;
                vals[i] = attr_value(at, &vn);
                lens[i] = vals[i] != NULL ? vn : 0;
                break;
            }
    }
    const unsigned char *c = vals[META_CONTENT], *k = NULL;
    size_t cn = lens[META_CONTENT], kn = 0;
    if (c == NULL)
        Py_RETURN_NONE;
    for (int i = 0; i < META_KEY_NAMES && k == NULL; i++)
        if (vals[i] != NULL && lens[i] > 0) {
            k = vals[i];
            kn = lens[i];
        }
    if (k == NULL)
        Py_RETURN_NONE;
    PyObject *key = mapped_str(k, kn, meta_ascii_key, key_normalize, m);
    if (key == NULL)
        return NULL;
    int wanted = PySet_Contains(m->wanted, key);
    if (wanted <= 0) {
        Py_DECREF(key);
        return wanted < 0 ? NULL : Py_NewRef(Py_None);
    }
    PyObject *content = PyUnicode_DecodeUTF8((const char *)c, (Py_ssize_t)cn, "replace");
    if (content == NULL) {
        Py_DECREF(key);
        return NULL;
    }
    PyObject *pair = PyTuple_Pack(2, key, content);
    Py_DECREF(key);
    Py_DECREF(content);
    return pair;
}

/* The selector lists select() and select_metas() were given, parsed (sel_list), by the identity of the
   tuple (held, so that it outlives the list's pointers into its bytes): the metadata scans pass the same
   two tuples on every page, and parsing one cost more than scanning a <head>. A scan copies its list (a
   callback may scan too) and starts with the attribute ids forgotten: they are the document's. */
enum { PARSED_LISTS = 4 };
static struct {
    PyObject *spec;
    SelList list;
} parsed[PARSED_LISTS];

static int parsed_list(PyObject *spec, SelList *out) {
    int k = 0;
    while (k < PARSED_LISTS && parsed[k].spec != NULL && parsed[k].spec != spec)
        k++;
    if (k == PARSED_LISTS) { /* more lists than slots: the first slot is parsed again */
        Py_CLEAR(parsed[0].spec);
        k = 0;
    }
    if (parsed[k].spec == NULL) {
        if (sel_list(spec, &parsed[k].list) < 0)
            return -1;
        parsed[k].spec = Py_NewRef(spec);
    }
    memcpy(out, &parsed[k].list, sizeof *out);
    memset(out->ids, 0, sizeof out->ids);
    out->nids = 0;
    return 0;
}

PyDoc_STRVAR(select_metas_doc,
             "select_metas(root, compounds, meta_id, wanted, prefixes, normalize, by_tag, itemprops)\n"
             "    -> list[LexborNode | tuple[str, str]]\n\n"
             "select(root, compounds), with each <meta> (tag id `meta_id`) given as (key, content) when its key\n"
             "is one of `wanted` (a frozenset of str), else left out: the key is the first non-empty of\n"
             "property, name, itemprop and http-equiv, stripped, lower-cased and, when it starts with one of\n"
             "`prefixes` (lower-case ASCII bytes), cut after its last \"/\" and then its last \":\"; a key not of\n"
             "ASCII is made by `normalize(raw key)` instead. An element whose tag id is not in `by_tag` and whose\n"
             "itemprop, lower-cased, is not in `itemprops` (a frozenset of str) is left out.");

static PyObject *native_select_metas(PyObject *self, PyObject *args) {
    PyObject *root_obj, *spec;
    unsigned long long meta_id;
    MetaRead m;
    PyObject *by_tag;
    if (!PyArg_ParseTuple(args, "OO!KO!O!OO!O!", &root_obj, &PyTuple_Type, &spec, &meta_id, &PyFrozenSet_Type,
                          &m.wanted, &PyTuple_Type, &m.prefixes, &m.normalize, &PyTuple_Type, &by_tag,
                          &PyFrozenSet_Type, &m.itemprops))
        return NULL;
    m.meta_id = (uintptr_t)meta_id;
    m.by_tag.nstop = 0;
    if (read_tag_ids(by_tag, m.by_tag.skip, &m.by_tag.nskip) < 0)
        return NULL;
    if (!PyCallable_Check(m.normalize))
        return PyErr_Format(PyExc_TypeError, "normalize must be callable");
    for (Py_ssize_t p = 0; p < PyTuple_GET_SIZE(m.prefixes); p++) {
        PyObject *prefix = PyTuple_GET_ITEM(m.prefixes, p);
        if (!PyBytes_Check(prefix))
            return PyErr_Format(PyExc_TypeError, "prefixes must be bytes");
        for (Py_ssize_t j = 0; j < PyBytes_GET_SIZE(prefix); j++) {
            unsigned char ch = (unsigned char)PyBytes_AS_STRING(prefix)[j];
            if (ch >= 0x80 || ascii_fold(ch) != ch)
                return PyErr_Format(PyExc_ValueError, "prefixes must be lower-case ASCII: %R", prefix);
        }
    }
    return selected(root_obj, spec, &m);
}

static PyObject *selected(PyObject *root_obj, PyObject *spec, const MetaRead *m) {
    if (!cfg.ready || nodes_cfg.type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "worker.clean._native is not configured for nodes");
        return NULL;
    }
    if (Py_TYPE(root_obj) != nodes_cfg.type)
        return PyErr_Format(PyExc_TypeError, "root must be a %s", nodes_cfg.type->tp_name);
    SelList parsed_spec, *list = &parsed_spec;
    if (parsed_list(spec, list) < 0)
        return NULL;
    Node *root;
    memcpy(&root, (char *)root_obj + nodes_cfg.node_offset, sizeof root);
    PyObject *parser = *(PyObject **)((char *)root_obj + nodes_cfg.parser_offset);
    const Document *doc = (const Document *)root->owner_document;
    list->quirks = doc != NULL && doc->compat_mode == CMODE_QUIRKS;
    PyObject *out = PyList_New(0), *no_args = PyTuple_New(0);
    if (out == NULL || no_args == NULL)
        goto fail;
    for (Node *node = root; node != NULL; node = next_in_subtree(node, root)) {
        Py_ssize_t times = compounds_matching(node, list);
        if (times == 0)
            continue;
        PyObject *item;
        if (m != NULL && node->tag_id == m->meta_id)
            item = meta_pair(node, m);
        else {
            int unread = m != NULL ? itemprop_unread(node, m) : 0;
            if (unread < 0)
                goto fail;
            item = unread ? Py_NewRef(Py_None) : make_node(node, parser, no_args);
        }
        if (item == NULL)
            goto fail;
        for (Py_ssize_t i = 0; i < times && item != Py_None; i++)
            if (PyList_Append(out, item) < 0) {
                Py_DECREF(item);
                goto fail;
            }
        Py_DECREF(item);
    }
    Py_DECREF(no_args);
    return out;
fail:
    Py_XDECREF(out);
    Py_XDECREF(no_args);
    return NULL;
}

/* ------------------------------------------------------------------------------------------------ */
/* A page's UTF-8 without the text of its head's scripts and styles (worker/clean/dom.py)           */

/* dom.head_unread_python is the reference; its docstring says which elements and why nothing reads their
   text. The scan follows the HTML tokenizer and the tree builder's "initial" to "after head" modes on the
   tokens a head holds (whitespace, comments, a doctype, html/head/meta/link/base/basefont/bgsound and
   </head> tags, title, script and style elements) and stops at the first other one: what follows is
   copied as it is. */

static inline int html_space(unsigned char c) { return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '; }
static inline int tag_name_end(unsigned char c) { return html_space(c) || c == '/' || c == '>'; }
/* str.isspace of an ASCII character (str.rstrip's whitespace; any byte >= 0x80 may be part of another) */
static inline int py_ascii_space(unsigned char c) { return html_space(c) || c == '\v' || (c >= 0x1c && c <= 0x1f); }

/* The last byte of s[0:n] that is no ASCII whitespace of str.isspace, -1 when there is none. */
static int last_unspaced(const unsigned char *s, size_t n) {
    while (n > 0 && py_ascii_space(s[n - 1]))
        n--;
    return n > 0 ? s[n - 1] : -1;
}

/* s[i] is just after a tag's name: the index after the tag's '>' (its attributes read as the tokenizer
   reads them: a quoted value may hold '>'), 0 when the input ends first. */
static size_t head_tag_end(const unsigned char *s, size_t n, size_t i) {
    for (;;) {
        while (i < n && (html_space(s[i]) || s[i] == '/'))
            i++;
        if (i >= n)
            return 0;
        if (s[i] == '>')
            return i + 1;
        i++; /* the attribute's name (a leading '=' is part of it) */
        while (i < n && !html_space(s[i]) && s[i] != '/' && s[i] != '>' && s[i] != '=')
            i++;
        while (i < n && html_space(s[i]))
            i++;
        if (i < n && s[i] == '=') {
            i++;
            while (i < n && html_space(s[i]))
                i++;
            if (i >= n)
                return 0;
            unsigned char q = s[i];
            if (q == '"' || q == '\'') {
                const unsigned char *e = memchr(s + i + 1, q, n - i - 1);
                if (e == NULL)
                    return 0;
                i = (size_t)(e - s) + 1;
            } else if (q == '>')
                return i + 1;
            else
                while (i < n && !html_space(s[i]) && s[i] != '>')
                    i++;
        }
    }
}

/* The index of the "</name" (ASCII-case-insensitive, then whitespace, '/' or '>') that ends the raw text
   starting at s[i], or n when there is none. */
static size_t raw_text_end(const unsigned char *s, size_t n, size_t i, const char *name, size_t m) {
    while (i < n) {
        const unsigned char *lt = memchr(s + i, '<', n - i);
        if (lt == NULL)
            return n;
        size_t j = (size_t)(lt - s);
        if (j + 2 + m < n && s[j + 1] == '/' && tag_name_end(s[j + 2 + m])) {
            size_t k = 0;
            while (k < m && ascii_fold(s[j + 2 + k]) == (unsigned char)name[k])
                k++;
            if (k == m)
                return j;
        }
        i = j + 1;
    }
    return n;
}

static int holds_ci(const unsigned char *s, size_t n, const char *w) {
    size_t m = strlen(w);
    for (size_t i = 0; i + m <= n; i++) {
        size_t k = 0;
        while (k < m && ascii_fold(s[i + k]) == (unsigned char)w[k])
            k++;
        if (k == m)
            return 1;
    }
    return 0;
}

static int holds_bytes(const unsigned char *s, size_t n, const char *w) {
    size_t m = strlen(w);
    if (m > n)
        return 0;
    return holds(s, n, w, m);
}

PyDoc_STRVAR(head_unread_doc, "head_unread(markup) -> bytes\n\n"
                              "dom.head_unread_python(markup): `markup` (UTF-8 bytes) without the text of its head's\n"
                              "scripts and styles; `markup` itself when there is none to leave out.");

static PyObject *native_head_unread(PyObject *self, PyObject *arg) {
    if (!PyBytes_Check(arg))
        return PyErr_Format(PyExc_TypeError, "head_unread() takes bytes, not %.80s", Py_TYPE(arg)->tp_name);
    const unsigned char *s = (const unsigned char *)PyBytes_AS_STRING(arg);
    size_t n = (size_t)PyBytes_GET_SIZE(arg), i = 0;
    size_t *cut = NULL, cuts = 0, room = 0, removed = 0; /* pairs (from, to) */
    int last = last_unspaced(s, n), in_head = 1; /* before </head>: a <link> after it goes to the head, the
                                                    whitespace after it not */
    int noscript = 0; /* in a <noscript> of the head */
    if (last < 0 || last >= 0x80)
        return Py_NewRef(arg);
    while (i < n) {
        unsigned char c = s[i];
        if (html_space(c)) {
            i++;
            continue;
        }
        if (c != '<' || i + 1 >= n)
            break;
        if (n - i >= 4 && memcmp(s + i, "<!--", 4) == 0) {
            size_t j = i + 4;
            if (j < n && s[j] == '>') {
                i = j + 1;
                continue;
            }
            if (j + 1 < n && s[j] == '-' && s[j + 1] == '>') {
                i = j + 2;
                continue;
            }
            size_t end = 0; /* the first "-->" or "--!>" */
            for (size_t k = j; k + 2 < n; k++) {
                const unsigned char *dash = memchr(s + k, '-', n - 2 - k);
                if (dash == NULL)
                    break;
                k = (size_t)(dash - s);
                if (s[k + 1] != '-')
                    continue;
                if (s[k + 2] == '>') {
                    end = k + 3;
                    break;
                }
                if (k + 3 < n && s[k + 2] == '!' && s[k + 3] == '>') {
                    end = k + 4;
                    break;
                }
            }
            if (end == 0)
                break;
            i = end;
            continue;
        }
        if (n - i >= 9 && s[i + 1] == '!' && holds_ci(s + i + 2, 7, "doctype")) {
            const unsigned char *gt = memchr(s + i, '>', n - i);
            if (gt == NULL)
                break;
            i = (size_t)(gt - s) + 1;
            continue;
        }
        int end_tag = s[i + 1] == '/';
        size_t name = i + 1 + (size_t)end_tag, k = name;
        while (k < n && !tag_name_end(s[k]))
            k++;
        size_t m = k - name;
        char low[9] = {0};
        if (m == 0 || m > 8 || memchr(s + name, 0, m) != NULL)
            break;
        for (size_t q = 0; q < m; q++)
            low[q] = (char)ascii_fold(s[name + q]);
        if (noscript && (end_tag ? strcmp(low, "noscript") != 0
                                 : strcmp(low, "link") && strcmp(low, "meta") && strcmp(low, "basefont") &&
                                       strcmp(low, "bgsound") && strcmp(low, "style")))
            break; /* a head's <noscript> holds these (the parser runs without scripting) */
        if (!strcmp(low, "noscript")) {
            size_t t = in_head && noscript == end_tag ? head_tag_end(s, n, k) : 0;
            if (t == 0)
                break;
            noscript = !end_tag;
            i = t;
            continue;
        }
        if (end_tag) {
            size_t t = strcmp(low, "head") == 0 ? head_tag_end(s, n, k) : 0;
            if (t == 0)
                break;
            in_head = 0;
            i = t;
            continue;
        }
        size_t from = 0, to = 0, next; /* what goes (from < to), and where the scan goes on */
        int link = !strcmp(low, "link");
        if (link || !strcmp(low, "meta") || !strcmp(low, "base") || !strcmp(low, "basefont") ||
            !strcmp(low, "bgsound") || !strcmp(low, "html") || !strcmp(low, "head")) {
            size_t t = head_tag_end(s, n, k);
            if (t == 0)
                break;
            if (link && in_head && t < n && html_space(s[t]) && memchr(s + i, '&', t - i) == NULL &&
                !holds_ci(s + i, t - i, "canonical")) {
                from = i; /* a <link> the metadata does not read (it reads the canonical one) */
                to = t;
            }
            next = t;
        } else {
            int script = !strcmp(low, "script");
            if (!script && strcmp(low, "style") && strcmp(low, "title"))
                break;
            size_t t = head_tag_end(s, n, k);
            if (t == 0)
                break;
            size_t e = raw_text_end(s, n, t, low, m);
            if (e >= n)
                break;
            next = head_tag_end(s, n, e + 2 + m);
            if (next == 0)
                break;
            if (script && holds_bytes(s + t, e - t, "<!--"))
                break; /* the tokenizer's escaped states: where the script ends is not looked for here */
            int unread = strcmp(low, "title") != 0 && e > t;
            if (script && ((memchr(s + i, '+', t - i) != NULL && holds_ci(s + i, t - i, "ld+json")) ||
                           memchr(s + i, '&', t - i) != NULL))
                unread = 0; /* JSON-LD is read (its type may be written with character references) */
            int tail = unread ? last_unspaced(s + t, e - t) : -1;
            if (unread && tail >= 0 && (tail >= 0x80 || tail == last))
                unread = 0; /* dom.unswallowed compares the last characters of a head's text with the page's */
            if (unread) {
                from = t;
                to = e;
            }
        }
        if (from < to) {
            if (cuts == room) {
                room = room ? 2 * room : 16;
                size_t *grown = PyMem_Realloc(cut, 2 * room * sizeof *cut);
                if (grown == NULL) {
                    PyMem_Free(cut);
                    return PyErr_NoMemory();
                }
                cut = grown;
            }
            cut[2 * cuts] = from;
            cut[2 * cuts + 1] = to;
            cuts++;
            removed += to - from;
        }
        i = next;
    }
    if (cuts == 0)
        return Py_NewRef(arg);
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n - removed));
    if (out != NULL) {
        unsigned char *o = (unsigned char *)PyBytes_AS_STRING(out);
        size_t from = 0;
        for (size_t c = 0; c < cuts; c++) {
            memcpy(o, s + from, cut[2 * c] - from);
            o += cut[2 * c] - from;
            from = cut[2 * c + 1];
        }
        memcpy(o, s + from, n - from);
    }
    PyMem_Free(cut);
    return out;
}

/* ------------------------------------------------------------------------------------------------ */

static PyMethodDef methods[] = {
    {"configure", native_configure, METH_VARARGS, configure_doc},
    {"segment", native_segment, METH_VARARGS, segment_doc},
    {"node", native_node, METH_O, node_doc},
    {"text", native_text, METH_VARARGS, text_doc},
    {"attributes", native_attributes, METH_O, attributes_doc},
    {"marked", native_marked, METH_VARARGS, marked_doc},
    {"header_text", native_header_text, METH_VARARGS, header_text_doc},
    {"configure_nodes", native_configure_nodes, METH_VARARGS, configure_nodes_doc},
    {"select", native_select, METH_VARARGS, select_doc},
    {"unmarked_text", native_unmarked_text, METH_VARARGS, unmarked_text_doc},
    {"in_marked_ancestor", native_in_marked_ancestor, METH_VARARGS, in_marked_ancestor_doc},
    {"select_metas", native_select_metas, METH_VARARGS, select_metas_doc},
    {"configure_fingerprint", native_configure_fingerprint, METH_VARARGS, configure_fingerprint_doc},
    {"fingerprint", native_fingerprint, METH_VARARGS, fingerprint_doc},
    {"text_hashes", native_text_hashes, METH_O, text_hashes_doc},
    {"utf8", native_utf8, METH_O, utf8_doc},
    {"head_unread", native_head_unread, METH_O, head_unread_doc},
    {"signature", native_signature, METH_VARARGS, signature_doc},
    {"clear_memo", native_clear_memo, METH_NOARGS, "Forget the memoised signature hashes."},
    {"count_page", native_count_page, METH_VARARGS, count_page_doc},
    {"template_set", native_template_set, METH_VARARGS, template_set_doc},
    {"prune", native_prune, METH_VARARGS, prune_doc},
    {"learn_positions", native_learn_positions, METH_VARARGS, learn_positions_doc},
    {"slot_blocks", native_slot_blocks, METH_VARARGS, slot_blocks_doc},
    {"kept_positions", native_kept_positions, METH_VARARGS, kept_positions_doc},
    {"template_strips", native_template_strips, METH_VARARGS, template_strips_doc},
    {"stable_path", native_stable_path, METH_VARARGS, stable_path_doc},
    {"scan", native_scan, METH_VARARGS, scan_doc},
    {"nesting_counts", native_nesting_counts, METH_VARARGS, nesting_counts_doc},
    {"count_attributes", native_count_attributes, METH_VARARGS, count_attributes_doc},
    {"date_starts", native_date_starts, METH_VARARGS, date_starts_doc},
    {"repeated_quotes", native_repeated_quotes, METH_VARARGS, repeated_quotes_doc},
    {"configure_idents", native_configure_idents, METH_VARARGS, configure_idents_doc},
    {"ident_flags", native_ident_flags, METH_VARARGS, ident_flags_doc},
    {"configure_tokens", native_configure_tokens, METH_VARARGS, configure_tokens_doc},
    {"quality_counts", native_quality_counts, METH_VARARGS, quality_counts_doc},
    {"stop_hits", native_stop_hits, METH_VARARGS, stop_hits_doc},
    {"configure_quality", native_configure_quality, METH_VARARGS, configure_quality_doc},
    {"qualities", native_qualities, METH_VARARGS, qualities_doc},
    {"instances", native_instances, METH_VARARGS, instances_doc},
    {"instance", (PyCFunction)(void (*)(void))native_instance, METH_FASTCALL | METH_KEYWORDS, instance_doc},
    {"configure_quality_dict", native_configure_quality_dict, METH_VARARGS, configure_quality_dict_doc},
    {"quality_dict", native_quality_dict, METH_O, quality_dict_doc},
    {"configure_score", native_configure_score, METH_VARARGS, configure_score_doc},
    {"score", native_score, METH_VARARGS, score_doc},
    {"tree_scores", native_tree_scores, METH_VARARGS, tree_scores_doc},
    {"tree_above", native_tree_above, METH_VARARGS, tree_above_doc},
    {"block_neighbours", native_block_neighbours, METH_VARARGS, block_neighbours_doc},
    {"block_features", native_block_features, METH_VARARGS, block_features_doc},
    {"repeats", native_repeats, METH_VARARGS, repeats_doc},
    {"positions", native_positions, METH_VARARGS, positions_doc},
    {"cut", native_cut, METH_VARARGS, cut_doc},
    {"configure_classify", native_configure_classify, METH_VARARGS, configure_classify_doc},
    {"decide", native_decide, METH_VARARGS, decide_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "worker.clean._native",
    "The segmentation walk and fingerprint hashes in C; worker/clean/native.py decides whether they run.", -1,
    methods,
};

PyMODINIT_FUNC PyInit__native(void) {
    crc_init();
#ifdef VECTOR_HASHES
    __builtin_cpu_init();
    vector_hashes = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("ssse3") &&
                    __builtin_cpu_supports("sse4.1");
    vector_avx2 = __builtin_cpu_supports("avx2");
#endif
    for (const char *c = " \t\n\f\r"; *c; c++)
        lexbor_spaces[(unsigned char)*c] = 1;
    for (Py_UCS4 c = 0; c < 128; c++)
        ascii_space[c] = (unsigned char)(Py_UNICODE_ISSPACE(c) != 0);
    for (int c = 0x21; c < 0x80; c++) /* add_text's runs of printable ASCII hold no whitespace */
        if (ascii_space[c]) {
            PyErr_SetString(PyExc_ImportError, "whitespace above U+0020 among ASCII characters");
            return NULL;
        }
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    PyObject *fields = PyTuple_New(NFIELDS);
    if (fields == NULL) {
        Py_DECREF(m);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < NFIELDS; i++) {
        PyObject *s = PyUnicode_FromString(FIELDS[i]);
        if (s == NULL) {
            Py_DECREF(fields);
            Py_DECREF(m);
            return NULL;
        }
        PyTuple_SET_ITEM(fields, i, s);
    }
    if (PyModule_AddObject(m, "FIELDS", fields) < 0) {
        Py_DECREF(fields);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
