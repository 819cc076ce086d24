#ifndef TODO_CURL_LOADER_H
#define TODO_CURL_LOADER_H

/// Loads libcurl (on Linux) on first call and returns 1 when it is there, 0 when it is not.
/// FoundationNetworking's URLSession runs on libcurl; todo loads it only when it makes a request.
int todo_curl_load(void);

/// Why libcurl could not be loaded, or NULL.
const char *todo_curl_load_error(void);

#include <stddef.h>

/// What a request made by `todo_http_perform` brought: the status, the headers of the answer that
/// counts (as sent, CRLF between lines) and the body. Zero it before the call; free its buffers
/// with `todo_http_answer_free`.
typedef struct {
    long status;
    unsigned char *body;
    size_t body_length;
    size_t body_capacity;
    /// The most body bytes taken; past it the request is given up and `exceeded` set.
    size_t limit;
    int exceeded;
    /// Set when the headers say the body is compressed (todo asks for none): it is not taken.
    int refused;
    int checked;
    unsigned char *headers;
    size_t headers_length;
    size_t headers_capacity;
    char error[256];
} todo_http_answer;

/// Makes one request with libcurl's easy interface (Linux), following no redirect, within
/// `timeout_milliseconds` in all; returns libcurl's code (0 when an answer came).
int todo_http_perform(const char *method, const char *url, char *const *headers, int header_count,
                      const unsigned char *body, long body_length, long timeout_milliseconds, todo_http_answer *answer);

void todo_http_answer_free(todo_http_answer *answer);

#endif
