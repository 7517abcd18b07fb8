/*
 * The system simdjson library (Debian: libsimdjson-dev; pkg-config: simdjson). Its header
 * is C++, so no Swift code imports this module: CSnapshotJSON includes <simdjson.h> itself
 * and this target only carries the library's compile and link flags to it.
 */
