#ifndef TODO_CURL_LOADER_H
#define TODO_CURL_LOADER_H

/// Loads libcurl (on Linux) on first call and returns 1 when it is there, 0 when it is not.
/// FoundationNetworking's URLSession runs on libcurl; todo loads it only when it makes a request.
int todo_curl_load(void);

/// Why libcurl could not be loaded, or NULL.
const char *todo_curl_load_error(void);

#endif
