/// The last `capacity` elements appended, in a fixed amount of memory (the dashboard's event log
/// and latency samples).
struct Ring<Element> {
    let capacity: Int
    private var storage: [Element] = []
    /// Where the next element goes once the storage is full.
    private var next = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// Appends `element`, replacing the oldest one when full.
    mutating func append(_ element: Element) {
        if storage.count < capacity {
            storage.append(element)
        } else {
            storage[next] = element
        }
        next = (next + 1) % capacity
    }

    /// The elements, oldest first.
    var elements: [Element] {
        storage.count < capacity ? storage : Array(storage[next...] + storage[..<next])
    }

    var count: Int { storage.count }
}

extension Ring: Sendable where Element: Sendable {}
