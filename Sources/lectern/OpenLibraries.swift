import Foundation
import Lectern

/// The libraries this process opened for writing, checkpointed once before it exits (`main`):
/// a command's writes then sit in the library file itself, not in its `-wal`, and a plain copy
/// of the file is the whole library.
enum OpenLibraries {
    private final class Registry: @unchecked Sendable {
        let lock = NSLock()
        var stores: [LibraryStore] = []
    }

    private static let registry = Registry()

    static func opened(_ store: LibraryStore) {
        registry.lock.withLock { registry.stores.append(store) }
    }

    /// Best-effort and silent (see `LibraryStore.checkpoint`).
    static func checkpointAll() {
        for store in registry.lock.withLock({ registry.stores }) { store.checkpoint() }
    }
}
