// libcurl, loaded only when todo makes an HTTP request.
//
// FoundationNetworking's static library calls libcurl. Linking libcurl.so.4 into todo would make the
// dynamic loader load it and some thirty libraries it needs at every start (2 ms, more than most
// commands' work), so todo defines the libcurl functions FoundationNetworking calls, and each one
// forwards to the real function, looked up the first time it is called. The package's Swift settings
// drop the `-lcurl` that FoundationNetworking would otherwise add to the link.
#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "CurlLoader.h"

static void *library;
static const char *loadError;
static pthread_once_t loadOnce = PTHREAD_ONCE_INIT;

static void load(void) {
    library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) loadError = dlerror();
}

int todo_curl_load(void) {
    pthread_once(&loadOnce, load);
    return library != NULL;
}

const char *todo_curl_load_error(void) {
    todo_curl_load();
    return loadError;
}

static void *curlSymbol(const char *name) {
    return todo_curl_load() ? dlsym(library, name) : NULL;
}

// Each forwarder looks its function up once; `fallback` is what it returns without libcurl (Swift
// checks todo_curl_load before making a request, so that is only a safety net).
#define FORWARD(type, name, parameters, arguments, fallback)                                 \
    type name parameters {                                                                   \
        static type(*real) parameters;                                                        \
        if (!real) real = (type(*) parameters)curlSymbol(#name);                              \
        return real ? real arguments : fallback;                                              \
    }
#define FORWARD_VOID(name, parameters, arguments)                                            \
    void name parameters {                                                                   \
        static void(*real) parameters;                                                        \
        if (!real) real = (void(*) parameters)curlSymbol(#name);                              \
        if (real) real arguments;                                                            \
    }
// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt take exactly one argument after the
// option: a long, a curl_off_t, a pointer or a function pointer, each passed as one 64-bit word
// on the 64-bit platforms Swift supports on Linux.
#define FORWARD_OPTION(name, fallback)                                                       \
    int name(void *handle, int option, ...) {                                                \
        static int (*real)(void *, int, ...);                                                \
        if (!real) real = (int (*)(void *, int, ...))curlSymbol(#name);                       \
        va_list list;                                                                        \
        va_start(list, option);                                                              \
        void *argument = va_arg(list, void *);                                               \
        va_end(list);                                                                        \
        return real ? real(handle, option, argument) : fallback;                              \
    }

enum { curlFailedInit = 2, curlMultiInternalError = 4 };

FORWARD(int, curl_global_init, (long flags), (flags), curlFailedInit)
FORWARD(void *, curl_easy_init, (void), (), NULL)
FORWARD_VOID(curl_easy_cleanup, (void *handle), (handle))
FORWARD(int, curl_easy_pause, (void *handle, int mask), (handle, mask), curlFailedInit)
FORWARD(const char *, curl_easy_strerror, (int code), (code), "libcurl is not available")
FORWARD_VOID(curl_free, (void *pointer), (pointer))
FORWARD(void *, curl_multi_init, (void), (), NULL)
FORWARD(int, curl_multi_cleanup, (void *multi), (multi), curlMultiInternalError)
FORWARD(int, curl_multi_add_handle, (void *multi, void *handle), (multi, handle), curlMultiInternalError)
FORWARD(int, curl_multi_remove_handle, (void *multi, void *handle), (multi, handle), curlMultiInternalError)
FORWARD(int, curl_multi_assign, (void *multi, int socket, void *pointer), (multi, socket, pointer), curlMultiInternalError)
FORWARD(void *, curl_multi_info_read, (void *multi, int *count), (multi, count), NULL)
FORWARD(int, curl_multi_socket_action, (void *multi, int socket, int mask, int *running),
        (multi, socket, mask, running), curlMultiInternalError)
FORWARD(void *, curl_slist_append, (void *list, const char *text), (list, text), NULL)
FORWARD_VOID(curl_slist_free_all, (void *list), (list))
FORWARD(void *, curl_url, (void), (), NULL)
FORWARD(int, curl_url_get, (void *url, int part, char **text, unsigned int flags), (url, part, text, flags), 1)
FORWARD(int, curl_url_set, (void *url, int part, const char *text, unsigned int flags), (url, part, text, flags), 1)
FORWARD(char *, curl_version, (void), (), "")
FORWARD(void *, curl_version_info, (int age), (age), NULL)
// todo never lets libcurl inflate an answer (FoundationNetworking asks for every encoding curl
// knows): a few megabytes of gzip inflate to gigabytes faster than URLSession's delegate can give
// up, while the bytes as sent are counted as they arrive (see URLSessionTransport).
enum { curlOptionAcceptEncoding = 10102, curlOptionURL = 10002, curlOptionMaxReceiveSpeed = 30146 };
// URLSession on Linux reads on without waiting for its delegate, so an endless answer piles up in
// memory until the delegate gets to see that the limit is passed (on a busy machine, seconds). A
// cap on the receiving speed bounds that pile: 64 MB a second, far above what a geocoder or an
// import needs (the largest import allowed, 1 GB, takes 16 seconds of its 30).
static const long long maxReceiveBytesPerSecond = 64LL << 20;

int curl_easy_setopt(void *handle, int option, ...) {
    static int (*real)(void *, int, ...);
    if (!real) real = (int (*)(void *, int, ...))curlSymbol("curl_easy_setopt");
    va_list list;
    va_start(list, option);
    void *argument = va_arg(list, void *);
    va_end(list);
    if (!real) return curlFailedInit;
    if (option == curlOptionAcceptEncoding) argument = NULL;
    // FoundationNetworking sets the URL of every request it makes.
    if (option == curlOptionURL) real(handle, curlOptionMaxReceiveSpeed, (void *)maxReceiveBytesPerSecond);
    return real(handle, option, argument);
}
FORWARD_OPTION(curl_easy_getinfo, curlFailedInit)
FORWARD_OPTION(curl_multi_setopt, curlMultiInternalError)
FORWARD(int, curl_easy_perform, (void *handle), (handle), curlFailedInit)

// A request through libcurl's easy interface: one blocking call, which waits for the answer in
// poll(). URLSession on Linux burns a core's worth of time while it waits (its libdispatch
// sources wake each other without pause), more than everything else `todo sync` does.
enum {
    optionWriteData = 10001, optionErrorBuffer = 10010, optionPostFields = 10015, optionHTTPHeader = 10023,
    optionHeaderData = 10029, optionCustomRequest = 10036, optionWriteFunction = 20011, optionHeaderFunction = 20079,
    optionNoSignal = 99, optionFollowLocation = 52, optionHTTPGet = 80, optionTimeoutMilliseconds = 155,
    optionProtocols = 181, optionPostFieldSize = 30120, infoResponseCode = 0x200002,
    protocolHTTP = 1, protocolHTTPS = 2,
};

static int appendBytes(unsigned char **buffer, size_t *length, size_t *capacity, const char *data, size_t count) {
    if (*length + count > *capacity) {
        size_t grown = *capacity ? *capacity : 4096;
        while (grown < *length + count) grown *= 2;
        unsigned char *moved = realloc(*buffer, grown);
        if (!moved) return 0;
        *buffer = moved;
        *capacity = grown;
    }
    memcpy(*buffer + *length, data, count);
    *length += count;
    return 1;
}

/// Whether the headers name a `Content-Encoding` other than identity.
static int isCompressed(const todo_http_answer *answer) {
    static const char name[] = "content-encoding:";
    size_t length = answer->headers_length, size = sizeof name - 1;
    const unsigned char *text = answer->headers;
    for (size_t start = 0; start + size <= length; start++) {
        if (start > 0 && text[start - 1] != '\n') continue;
        size_t index = 0;
        while (index < size && (text[start + index] | 0x20) == name[index]) index++;
        if (index < size) continue;
        size_t value = start + size;
        while (value < length && (text[value] == ' ' || text[value] == '\t')) value++;
        static const char identity[] = "identity";
        size_t matched = 0;
        while (matched < 8 && value + matched < length && (text[value + matched] | 0x20) == identity[matched]) matched++;
        return matched < 8;
    }
    return 0;
}

static size_t onBody(char *data, size_t size, size_t count, void *context) {
    todo_http_answer *answer = context;
    size_t bytes = size * count;
    if (!answer->checked) {
        answer->checked = 1;
        answer->refused = isCompressed(answer);
    }
    // A compressed answer, or one larger than the limit, is given up before its body is kept.
    if (answer->refused || answer->body_length + bytes > answer->limit) {
        if (!answer->refused) answer->exceeded = 1;
        return 0;
    }
    return appendBytes(&answer->body, &answer->body_length, &answer->body_capacity, data, bytes) ? bytes : 0;
}

static size_t onHeader(char *data, size_t size, size_t count, void *context) {
    todo_http_answer *answer = context;
    size_t bytes = size * count;
    // A new status line starts the headers of the answer that counts (after a 100 Continue).
    if (bytes >= 5 && memcmp(data, "HTTP/", 5) == 0) answer->headers_length = 0;
    if (answer->headers_length + bytes > (1 << 20)) return 0;
    return appendBytes(&answer->headers, &answer->headers_length, &answer->headers_capacity, data, bytes) ? bytes : 0;
}

FORWARD_VOID(curl_easy_reset, (void *handle), (handle))

// One easy handle for every request of the process, one request at a time: what it keeps between
// requests (open connections, DNS answers, TLS sessions) is used again, so that the thousand PUTs
// of a first sync to a server far away make one connection, not a thousand handshakes. Reset
// before each request, it keeps nothing of the last one's options. A request made while another
// is under way takes a handle of its own.
static pthread_mutex_t requestLock = PTHREAD_MUTEX_INITIALIZER;
static void *sharedHandle;

static int perform(void *handle, const char *method, const char *url, char *const *headers, int header_count,
                   const unsigned char *body, long body_length, long timeout_milliseconds, todo_http_answer *answer);

int todo_http_perform(const char *method, const char *url, char *const *headers, int header_count,
                      const unsigned char *body, long body_length, long timeout_milliseconds, todo_http_answer *answer) {
    if (pthread_mutex_trylock(&requestLock) != 0) {
        // Another request is under way on the shared handle (sync setup's two writes at once, to
        // see whether the server takes both): this one goes on a handle of its own.
        void *own = curl_easy_init();
        int code = own ? perform(own, method, url, headers, header_count, body, body_length, timeout_milliseconds, answer) : curlFailedInit;
        if (own) curl_easy_cleanup(own);
        return code;
    }
    if (sharedHandle) {
        curl_easy_reset(sharedHandle);
    } else {
        sharedHandle = curl_easy_init();
    }
    int code = sharedHandle ? perform(sharedHandle, method, url, headers, header_count, body, body_length, timeout_milliseconds, answer)
                            : curlFailedInit;
    pthread_mutex_unlock(&requestLock);
    return code;
}

static int perform(void *handle, const char *method, const char *url, char *const *headers, int header_count,
                   const unsigned char *body, long body_length, long timeout_milliseconds, todo_http_answer *answer) {
    void *list = NULL;
    for (int index = 0; index < header_count; index++) list = curl_slist_append(list, headers[index]);
    curl_easy_setopt(handle, curlOptionURL, url);
    curl_easy_setopt(handle, optionProtocols, (void *)(long)(protocolHTTP | protocolHTTPS));
    curl_easy_setopt(handle, optionNoSignal, (void *)1L);
    curl_easy_setopt(handle, optionFollowLocation, (void *)0L);
    curl_easy_setopt(handle, optionTimeoutMilliseconds, (void *)timeout_milliseconds);
    curl_easy_setopt(handle, optionErrorBuffer, answer->error);
    curl_easy_setopt(handle, optionWriteFunction, (void *)onBody);
    curl_easy_setopt(handle, optionWriteData, answer);
    curl_easy_setopt(handle, optionHeaderFunction, (void *)onHeader);
    curl_easy_setopt(handle, optionHeaderData, answer);
    if (body) {
        curl_easy_setopt(handle, optionPostFieldSize, (void *)body_length);
        curl_easy_setopt(handle, optionPostFields, body);
    } else {
        curl_easy_setopt(handle, optionHTTPGet, (void *)1L);
    }
    curl_easy_setopt(handle, optionCustomRequest, method);
    if (list) curl_easy_setopt(handle, optionHTTPHeader, list);
    int code = curl_easy_perform(handle);
    long status = 0;
    curl_easy_getinfo(handle, infoResponseCode, &status);
    answer->status = status;
    // The handle still points at the list and the answer: the next request's reset forgets them.
    curl_slist_free_all(list);
    return code;
}

void todo_http_answer_free(todo_http_answer *answer) {
    free(answer->body);
    free(answer->headers);
    answer->body = NULL;
    answer->headers = NULL;
}

#else
#include "CurlLoader.h"
// Elsewhere URLSession is the system's own.
int todo_curl_load(void) { return 1; }
const char *todo_curl_load_error(void) { return 0; }
int todo_http_perform(const char *method, const char *url, char *const *headers, int header_count,
                      const unsigned char *body, long body_length, long timeout_milliseconds, todo_http_answer *answer) {
    return 2;
}
void todo_http_answer_free(todo_http_answer *answer) {}
#endif
