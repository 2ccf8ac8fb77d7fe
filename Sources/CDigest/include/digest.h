#ifndef LECTERN_DIGEST_H
#define LECTERN_DIGEST_H

#include <stddef.h>
#include <stdint.h>

/// SHA-256 (FIPS 180-4) of `length` bytes at `data` into `out` (32 bytes): content hashes,
/// card identities. Lectern's own, so that building needs no cryptography library.
void lectern_sha256(const void *data, size_t length, uint8_t out[32]);

/// SHA-1 of `length` bytes at `data` into `out` (20 bytes): only Anki's sort-field checksum
/// (`csum`), which the format defines with it; never for anything that must resist forgery.
void lectern_sha1(const void *data, size_t length, uint8_t out[20]);

#endif
