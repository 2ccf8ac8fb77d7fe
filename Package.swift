// swift-tools-version:6.0
import PackageDescription

// Lectern's own C (the MiniLM encoder's products, the int8 scan, the digests) is compiled with
// -O2 in the debug build too, which `make test` and `make demo` run: at -O0 every register tile
// of a kernel spills to the stack. An unsafe flag bars depending on Lectern by version (a
// branch or a path still works); Lectern is an application first, so the tests' speed wins.
let optimizedInDebug: [CSetting] = [.unsafeFlags(["-O2"], .when(configuration: .debug))]

let package = Package(
    name: "Lectern",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Lectern", targets: ["Lectern"]),
        .executable(name: "lectern", targets: ["lectern"]),
        .executable(name: "lectern-mcp", targets: ["lectern-mcp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // `lectern mcp`: the Model Context Protocol server over stdio (the lectern-mcp executable).
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
    ],
    targets: [
        // poppler-glib, libxml2, libcurl, libtesseract and libpq are opened with dlopen on first use, so
        // that a command loads only what it uses: they are not linked (no `pkgConfig`, whose `-l`
        // flags would link them), and their shims declare what Lectern uses of them themselves
        // (Sources/CDynamicLoader; ShimLayoutTests compares with the real headers), so building
        // needs no include path (an unsafe flag would bar depending on Lectern by version).
        .systemLibrary(name: "CCurl"),
        .systemLibrary(name: "CLibXML2"),
        .systemLibrary(name: "CPoppler"),
        .systemLibrary(name: "CTesseract"),
        // libpq, for a library on PostgreSQL (Store/Postgres).
        .systemLibrary(name: "CPostgres"),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZLib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The compact vector scan: int8 dot products with AVX-512BW/AVX2 chosen at run time
        // (per-function target attributes, so no unsafe flags), portable C elsewhere.
        .target(name: "CVectorScan", cSettings: optimizedInDebug),
        // Lectern's own float32/bfloat16 matrix product for MiniLM: AVX-512, AVX2 or portable C,
        // chosen at run time (per-function target attributes, no compiler flags).
        .target(name: "CGemm", cSettings: optimizedInDebug),
        // SHA-256 (content hashes, card ids) and SHA-1 (Anki's checksum), Lectern's own: a
        // cryptography package cost a fresh build hundreds of BoringSSL files for these two.
        .target(name: "CDigest", cSettings: optimizedInDebug),
        .target(
            name: "Lectern",
            dependencies: [
                "CCurl", "CLibXML2", "CPoppler", "CTesseract", "CPostgres", "CSQLite", "CZLib", "CVectorScan", "CGemm", "CDigest",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        .executableTarget(
            name: "lectern",
            dependencies: [
                "Lectern",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `lectern mcp` execs this: the MCP SDK links FoundationNetworking, which `lectern`
        // keeps out so that every command starts in a few milliseconds.
        .executableTarget(
            name: "lectern-mcp",
            dependencies: [
                "Lectern",
                .product(name: "MCP", package: "swift-sdk"),
            ]
        ),
        .testTarget(
            name: "LecternTests",
            dependencies: ["Lectern", "lectern-mcp", "CCurl", "CLibXML2", "CPoppler", "CTesseract", "CPostgres", "CSQLite", "CVectorScan", "CGemm", "CDigest"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
