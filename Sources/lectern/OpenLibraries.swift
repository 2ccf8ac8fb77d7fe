import Foundation
import Lectern

/// The libraries this process opened for writing, checkpointed once before it exits (`main`):
/// a command's writes then sit in the library file itself, not in its `-wal`, and a plain copy
/// of the file is the whole library; and their vector sidecars brought up to date.
enum OpenLibraries {
    private static let stores = Locked<[LibraryStore]>([])

    static func opened(_ store: LibraryStore) {
        stores.withLock { $0.append(store) }
    }

    /// Best-effort and silent (see `LibraryStore.checkpoint`). `refreshingSidecars`: a library's
    /// vector sidecar made stale by the command's writes is written again
    /// (`LibraryStore.refreshVectorSidecar`); not after a stop, which should end at once.
    static func checkpointAll(refreshingSidecars: Bool) {
        for store in stores.current {
            store.checkpoint()
            if refreshingSidecars { store.refreshVectorSidecar() }
        }
    }
}
