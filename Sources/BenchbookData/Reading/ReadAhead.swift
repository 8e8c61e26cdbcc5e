import Dispatch
import Synchronization

/// Runs a reader of bytes on a thread of its own, a few chunks ahead of the caller: reading, hashing and
/// inflating a data file then overlap with parsing it, instead of taking turns with it on one core.
///
/// The chunks arrive in order, and an error arrives where the reader met it, after the bytes read before it, so
/// the caller sees what reading on its own thread would have shown, sooner.
final class ReadAhead {
  /// What the reader produced: bytes, its end, or the error it stopped at.
  fileprivate enum Chunk: Sendable {
    case bytes([UInt8])
    case end
    case failure(DataError)
  }

  /// What the reading thread and the caller share; the thread holds this, never the `ReadAhead`, so that
  /// dropping the `ReadAhead` stops it.
  private final class Shared: Sendable {
    /// Chunks read and not yet taken, oldest first.
    let ready = Mutex<[Chunk]>([])
    /// Counts the chunks in `ready`.
    let filled = DispatchSemaphore(value: 0)
    /// Counts the room left for chunks ahead of the caller.
    let room: DispatchSemaphore
    let stopped = Atomic<Bool>(false)
    let finished = DispatchGroup()

    init(depth: Int) {
      // Made at zero and raised: libdispatch traps when a semaphore is freed below the value it was made with,
      // as `room` is when the caller stops before taking every chunk read.
      room = DispatchSemaphore(value: 0)
      for _ in 0..<depth { room.signal() }
    }
  }

  private let shared: Shared
  /// The chunk being taken apart, and how much of it is taken.
  private var current: [UInt8] = []
  private var offset = 0
  private var atEnd = false

  /// Starts reading at once.
  /// - Parameters:
  ///   - chunkBytes: bytes asked of `read` at a time.
  ///   - depth: chunks held ahead of the caller at most.
  ///   - read: fills its buffer, fewer bytes only at the end, 0 once everything is read; runs on the reading
  ///     thread only, until the reading ends or `stop` returns.
  init(
    chunkBytes: Int = 1 << 20, depth: Int = 4,
    read: @escaping @Sendable (UnsafeMutableBufferPointer<UInt8>) throws(DataError) -> Int
  ) {
    let shared = Shared(depth: depth)
    self.shared = shared
    DispatchQueue.global().async(group: shared.finished) {
      while true {
        shared.room.wait()
        if shared.stopped.load(ordering: .acquiring) { return }
        let produced: Chunk
        do throws(DataError) {
          // Filled by `read` as it comes, without zeroing it first.
          let chunk = try [UInt8](unsafeUninitializedCapacity: chunkBytes) {
            (buffer, count) throws(DataError) in count = try read(buffer)
          }
          produced = chunk.isEmpty ? .end : .bytes(chunk)
        } catch {
          produced = .failure(error)
        }
        shared.ready.withLock { $0.append(produced) }
        shared.filled.signal()
        guard case .bytes = produced else { return }
      }
    }
  }

  deinit { stop() }

  /// Fills `out`; fewer bytes only at the end, 0 once everything is read.
  func read(into out: UnsafeMutableBufferPointer<UInt8>) throws(DataError) -> Int {
    var count = 0
    while count < out.count {
      if offset == current.count {
        if atEnd { break }
        shared.filled.wait()
        let chunk = shared.ready.withLock { $0.removeFirst() }
        shared.room.signal()
        switch chunk {
        case .bytes(let bytes):
          current = bytes
          offset = 0
        case .end:
          atEnd = true
          continue
        case .failure(let error):
          throw error
        }
      }
      let take = min(current.count - offset, out.count - count)
      current.withUnsafeBufferPointer { bytes in
        (out.baseAddress! + count).update(from: bytes.baseAddress! + offset, count: take)
      }
      offset += take
      count += take
    }
    return count
  }

  /// Stops the reading thread and waits for it, so that what it read from is the caller's again.
  func stop() {
    shared.stopped.store(true, ordering: .releasing)
    shared.room.signal()
    shared.finished.wait()
  }
}
