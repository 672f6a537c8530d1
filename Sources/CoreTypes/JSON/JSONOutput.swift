/// The growable byte buffer ``JSONWriter`` writes into.
///
/// An append is a capacity check and a store (or one copy for a run of bytes). Appending to an
/// `[UInt8]` would also check that the array is uniquely referenced and, for a run, go through the
/// generic `append(contentsOf:)`.
///
/// It owns its memory and cannot be copied; ``takeArray()`` hands the bytes over as an array.
struct JSONOutput: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes have been written.
    private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes before it grows.
    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
        (base + count).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `count` copies of `byte`.
    mutating func append(_ byte: UInt8, count repeats: Int) {
        guard repeats > 0 else { return }
        if count + repeats > capacity { grow(toHold: count + repeats) }
        (base + count).update(repeating: byte, count: repeats)
        count += repeats
    }

    /// Appends the bytes of `bytes`.
    mutating func append(contentsOf bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The bytes written so far, as an array of exactly their size.
    ///
    /// Copied through `Array.init(_:)` of a buffer pointer, which the compiler specializes for
    /// `UInt8`; `Array(unsafeUninitializedCapacity:)` allocates through a generic function of the
    /// standard library that looks the array's storage type up at run time.
    consuming func takeArray() -> [UInt8] {
        array()
    }

    /// The bytes written so far, as an array, leaving them in place (for an output kept in a class).
    func array() -> [UInt8] {
        [UInt8](UnsafeBufferPointer(start: base, count: count))
    }

    /// The bytes from `start` on, for `body` to read; they are valid only during the call.
    func withBytes<Result>(from start: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(UnsafeRawBufferPointer(start: base + start, count: count - start))
    }

    /// Forgets the bytes from `newCount` on (which must not be past ``count``).
    mutating func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= count, "truncating \(count) bytes to \(newCount)")
        count = newCount
    }

    /// Appends the bytes written so far to `array`.
    func append(to array: inout [UInt8]) {
        array.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    }

    private mutating func grow(toHold needed: Int) {
        let newCapacity = max(needed, 2 * capacity)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
