// swift-tools-version:6.0
import PackageDescription

// poppler-glib, libxml2, libcurl and OpenBLAS are opened with dlopen on first use (see each
// module's shim.h), so that a command loads only what it uses: they must not be linked. Their
// system-library targets therefore have no `pkgConfig` (whose `-l` flags would link them); only
// their headers are needed. curl's and OpenBLAS's are on the default include path; poppler-glib
// (with glib and cairo) and libxml2 need these directories, as `pkg-config --cflags` gives them,
// on every target that imports those modules directly or through Lectern.
#if arch(arm64)
let multiarch = "aarch64-linux-gnu"
#else
let multiarch = "x86_64-linux-gnu"
#endif
let lazyLibraryHeaders: [SwiftSetting] = [
    .unsafeFlags([
        "/usr/include/poppler/glib", "/usr/include/glib-2.0", "/usr/lib/\(multiarch)/glib-2.0/include",
        "/usr/include/cairo", "/usr/include/libxml2",
    ].flatMap { ["-Xcc", "-I" + $0] }, .when(platforms: [.linux])),
]

let package = Package(
    name: "Lectern",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Lectern", targets: ["Lectern"]),
        .executable(name: "lectern", targets: ["lectern"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // Headers only (libcurl4-openssl-dev, libxml2-dev, libpoppler-glib-dev, libopenblas-dev):
        // loaded at run time, see above.
        .systemLibrary(name: "CCurl"),
        .systemLibrary(name: "CLibXML2"),
        .systemLibrary(name: "CPoppler"),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZLib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "COpenBLAS"),
        .target(
            name: "Lectern",
            dependencies: [
                "CCurl", "CLibXML2", "CPoppler", "CSQLite", "CZLib", "COpenBLAS",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: lazyLibraryHeaders
        ),
        .executableTarget(
            name: "lectern",
            dependencies: [
                "Lectern",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: lazyLibraryHeaders
        ),
        .testTarget(
            name: "LecternTests",
            dependencies: ["Lectern"],
            swiftSettings: lazyLibraryHeaders
        ),
    ],
    swiftLanguageModes: [.v6]
)
