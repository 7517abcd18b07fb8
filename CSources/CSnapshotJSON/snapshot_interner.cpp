// The identifier interner: open addressing (linear probing) over 8-byte entries, each the
// upper half of the string's XXH3-64 (the tag) and its number + 1 (0 is an empty entry).
// The tag's top bits pick the bucket, so growing reads the old table in order and writes
// the new one nearly in order, from the entries alone. Strings are copied back to back.
#include "snapshot_interner.h"

#include <dfc.h>


#include <cstring>
#include <new>
#include <utility>
#include <vector>

namespace {

// The table's memory, from the core's default allocator, so the huge-page policy is the core's
// one: probes land anywhere in the table, and on 4 KiB pages nearly every probe of a large
// table would also miss the TLB.
class Table {
  public:
    Table() = default;
    explicit Table(size_t size) : size_(size) {
        const dfc_allocator *allocator = dfc_default_allocator();
        void *memory = allocator->allocate(allocator->user_data, size * sizeof(uint64_t));
        if (memory == nullptr) throw std::bad_alloc();
        std::memset(memory, 0, size * sizeof(uint64_t));  // 0 marks an empty slot
        entries_ = static_cast<uint64_t *>(memory);
    }
    Table(const Table &) = delete;
    Table &operator=(const Table &) = delete;
    Table &operator=(Table &&other) noexcept {
        std::swap(entries_, other.entries_);
        std::swap(size_, other.size_);
        return *this;
    }
    ~Table() {
        const dfc_allocator *allocator = dfc_default_allocator();
        if (entries_ != nullptr) allocator->release(allocator->user_data, entries_);
    }
    uint64_t &operator[](size_t index) { return entries_[index]; }
    uint64_t operator[](size_t index) const { return entries_[index]; }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }

  private:
    uint64_t *entries_ = nullptr;
    size_t size_ = 0;
};

}  // namespace

struct snapshot_interner {
    std::vector<char> bytes;
    std::vector<size_t> ends;  // string i is bytes[ends[i-1] ..< ends[i]]
    std::vector<uint32_t> non_ascii;
    Table table;
    unsigned bits = 0;  // table.size() == 1 << bits
    std::vector<uint32_t> batch_tags;  // scratch for one intern_batch call
};

namespace {

// How many strings ahead of its probe a bucket is prefetched.
constexpr size_t distance = 16;
// The last number a string can get: UINT32_MAX is SNAPSHOT_INTERNER_NOT_FOUND, and the
// table stores number + 1 in 32 bits.
constexpr size_t maximum_count = UINT32_MAX - 1;

bool is_ascii(const char *bytes, size_t length) {
    unsigned char any = 0;
    for (size_t i = 0; i < length; i++) any |= static_cast<unsigned char>(bytes[i]);
    return any < 0x80;
}

bool same(const snapshot_interner &interner, uint32_t id, const char *bytes, size_t length) {
    size_t start = id == 0 ? 0 : interner.ends[id - 1];
    return interner.ends[id] - start == length && (length == 0 || std::memcmp(interner.bytes.data() + start, bytes, length) == 0);
}

uint32_t tag_of(const char *bytes, size_t length) { return static_cast<uint32_t>(dfc_hash_one(bytes, length, 0) >> 32); }

size_t home(uint32_t tag, unsigned bits) { return tag >> (32 - bits); }

// Room for `more` strings at a load of at most 0.7; rebuilds the table when it grows.
void reserve(snapshot_interner &interner, size_t more) {
    size_t wanted = interner.ends.size() + more;
    if (interner.table.size() / 10 * 7 >= wanted) return;
    unsigned bits = interner.bits == 0 ? 10 : interner.bits;
    while ((size_t{1} << bits) / 10 * 7 < wanted) bits++;
    Table table(size_t{1} << bits);
    size_t mask = table.size() - 1;
    // Entries run in home order, except where probing wrapped past the end: a bucket's new
    // home never precedes the previous entry's, so the writes stream forward.
    for (size_t old = 0; old < interner.table.size(); old++) {
        uint64_t entry = interner.table[old];
        if (entry == 0) continue;
        size_t bucket = home(static_cast<uint32_t>(entry >> 32), bits);
        while (table[bucket] != 0) bucket = (bucket + 1) & mask;
        table[bucket] = entry;
    }
    interner.table = std::move(table);
    interner.bits = bits;
}

// The bucket holding the string, or the empty bucket where it belongs.
size_t probe(const snapshot_interner &interner, uint32_t tag, const char *bytes, size_t length) {
    size_t mask = interner.table.size() - 1;
    size_t bucket = home(tag, interner.bits);
    while (uint64_t entry = interner.table[bucket]) {
        if (static_cast<uint32_t>(entry >> 32) == tag && same(interner, static_cast<uint32_t>(entry) - 1, bytes, length)) return bucket;
        bucket = (bucket + 1) & mask;
    }
    return bucket;
}

}  // namespace

extern "C" snapshot_interner *snapshot_interner_create(void) { return new (std::nothrow) snapshot_interner(); }

extern "C" void snapshot_interner_free(snapshot_interner *interner) { delete interner; }

extern "C" int snapshot_interner_intern_batch(snapshot_interner *interner, const snapshot_string *strings, size_t count,
                                              uint32_t *ids) {
    try {
        if (interner->ends.size() + count > maximum_count) return -1;
        reserve(*interner, count);
        // Every hash first, then the probes with the bucket `distance` strings ahead prefetched:
        // far enough ahead that the line has arrived when its probe runs.
        std::vector<uint32_t> &tags = interner->batch_tags;
        tags.resize(count);
        for (size_t i = 0; i < count; i++) tags[i] = tag_of(strings[i].bytes, strings[i].length);
        for (size_t i = 0; i < count && i < distance; i++) __builtin_prefetch(&interner->table[home(tags[i], interner->bits)]);
        for (size_t i = 0; i < count; i++) {
            if (i + distance < count) __builtin_prefetch(&interner->table[home(tags[i + distance], interner->bits)]);
            const snapshot_string &string = strings[i];
            size_t bucket = probe(*interner, tags[i], string.bytes, string.length);
            if (uint64_t entry = interner->table[bucket]) {
                ids[i] = static_cast<uint32_t>(entry) - 1;
                continue;
            }
            uint32_t id = static_cast<uint32_t>(interner->ends.size());
            interner->bytes.insert(interner->bytes.end(), string.bytes, string.bytes + string.length);
            interner->ends.push_back(interner->bytes.size());
            if (!is_ascii(string.bytes, string.length)) interner->non_ascii.push_back(id);
            interner->table[bucket] = (static_cast<uint64_t>(tags[i]) << 32) | (static_cast<uint64_t>(id) + 1);
            ids[i] = id;
        }
        return 0;
    } catch (const std::exception &) {
        return -1;
    }
}

extern "C" int snapshot_interner_reserve(snapshot_interner *interner, size_t strings, size_t bytes) {
    try {
        interner->ends.reserve(interner->ends.size() + strings);
        interner->bytes.reserve(interner->bytes.size() + bytes);
        return 0;
    } catch (const std::exception &) {
        return -1;
    }
}

extern "C" uint32_t snapshot_interner_find(const snapshot_interner *interner, const char *bytes, size_t length) {
    if (interner->table.empty()) return SNAPSHOT_INTERNER_NOT_FOUND;
    uint64_t entry = interner->table[probe(*interner, tag_of(bytes, length), bytes, length)];
    return entry == 0 ? SNAPSHOT_INTERNER_NOT_FOUND : static_cast<uint32_t>(entry) - 1;
}

extern "C" size_t snapshot_interner_count(const snapshot_interner *interner) { return interner->ends.size(); }

extern "C" snapshot_string snapshot_interner_string(const snapshot_interner *interner, uint32_t id) {
    size_t start = id == 0 ? 0 : interner->ends[id - 1];
    return {interner->bytes.data() + start, interner->ends[id] - start};
}

extern "C" const uint32_t *snapshot_interner_non_ascii(const snapshot_interner *interner, size_t *count) {
    *count = interner->non_ascii.size();
    return interner->non_ascii.data();
}
