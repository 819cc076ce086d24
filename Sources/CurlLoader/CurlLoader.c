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

#else
#include "CurlLoader.h"
// Elsewhere URLSession is the system's own.
int todo_curl_load(void) { return 1; }
const char *todo_curl_load_error(void) { return 0; }
#endif
