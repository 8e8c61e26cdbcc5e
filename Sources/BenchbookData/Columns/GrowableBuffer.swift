#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A minimal growable buffer for the CSV hot loop: appends without Array's
/// uniqueness checks, growth by `realloc` (which remaps large blocks instead
/// of copying them), and hand-over of the memory without a final copy.
struct GrowableBuffer<Element: BitwiseCopyable> {
  private(set) var base: UnsafeMutablePointer<Element>
  private(set) var count = 0
  private var capacity: Int

  init(capacity: Int) {
    self.capacity = max(capacity, 16)
    guard let memory = malloc(self.capacity * MemoryLayout<Element>.stride) else { fatalError("out of memory") }
    base = memory.assumingMemoryBound(to: Element.self)
  }

  @inline(__always)
  mutating func append(_ element: Element) {
    if count == capacity { grow(toAtLeast: count + 1) }
    base[count] = element
    count += 1
  }

  @inline(__always)
  mutating func append(_ elements: UnsafePointer<Element>, count n: Int) {
    if count + n > capacity { grow(toAtLeast: count + n) }
    (base + count).update(from: elements, count: n)
    count += n
  }

  private mutating func grow(toAtLeast minimum: Int) {
    resize(max(minimum, capacity * 2))
  }

  private mutating func resize(_ newCapacity: Int) {
    guard let memory = realloc(base, max(newCapacity, 1) * MemoryLayout<Element>.stride) else {
      fatalError("out of memory")
    }
    base = memory.assumingMemoryBound(to: Element.self)
    capacity = newCapacity
  }

  /// Empties the buffer, keeping its memory.
  mutating func removeAll() { count = 0 }

  /// Hands the contents over as `OwnedBuffer`, trimmed to size; this buffer
  /// must not be used afterwards.
  mutating func finish() -> OwnedBuffer<Element> {
    resize(count)
    return OwnedBuffer(base: base, count: count)
  }

  /// Frees the memory of a buffer that was not `finish`ed.
  func deallocate() {
    free(base)
  }
}

/// Memory from a `GrowableBuffer`, freed when the last reference goes.
/// Immutable after creation, hence safe to share across threads.
final class OwnedBuffer<Element: BitwiseCopyable>: @unchecked Sendable {
  let elements: UnsafeBufferPointer<Element>

  init(base: UnsafeMutablePointer<Element>, count: Int) {
    elements = UnsafeBufferPointer(start: base, count: count)
  }

  deinit {
    free(UnsafeMutableRawPointer(mutating: elements.baseAddress))
  }
}
