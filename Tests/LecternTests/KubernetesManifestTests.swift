import XCTest
@testable import Lectern

/// deploy/kubernetes/, checked without a cluster or a Docker engine: every manifest parses, and
/// every command, option and environment variable a pod runs with is one lectern accepts (the
/// workers' command on a real PostgreSQL with an empty queue, where it exits 0 at once).
final class KubernetesManifestTests: CommandTestCase {
    let deploy = TestPaths.packageRoot.appendingPathComponent("deploy/kubernetes")

    /// The manifests are JSON-compatible YAML behind `#` comment lines.
    func manifests() throws -> [String: [String: Any]] {
        let names = try FileManager.default.contentsOfDirectory(atPath: deploy.path).filter { $0.hasSuffix(".yaml") }.sorted()
        XCTAssertFalse(names.isEmpty)
        var found: [String: [String: Any]] = [:]
        for name in names {
            let text = try String(contentsOf: deploy.appendingPathComponent(name), encoding: .utf8)
            let body = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("#") }.joined(separator: "\n")
            let object = try JSONSerialization.jsonObject(with: Data(body.utf8))
            found[name] = try XCTUnwrap(object as? [String: Any], "\(name): a manifest is an object")
            XCTAssertNotNil(found[name]?["apiVersion"] as? String, name)
            XCTAssertNotNil(found[name]?["kind"] as? String, name)
        }
        return found
    }

    func value(_ object: Any?, _ path: String) -> Any? {
        path.split(separator: ".").reduce(object) { ($0 as? [String: Any])?[String($1)] }
    }

    func testEveryPodRunsACommandOptionsAndEnvironmentLecternAccepts() throws {
        let manifests = try manifests()
        let pipelineText = try XCTUnwrap(manifests.values.first { $0["kind"] as? String == "ConfigMap" }
            .flatMap { (value($0, "data") as? [String: Any])?["nightly.toml"] as? String }, "the ConfigMap holds nightly.toml")
        try folder.write("config/nightly.toml", pipelineText)
        let known = Set(ConfigKey.all.map(\.environmentVariable))
        // Read by libpq (the password, never in the URL) and set by Kubernetes in an Indexed Job's pods.
        let external: Set<String> = ["PGPASSWORD", "JOB_COMPLETION_INDEX"]
        let dockerfile = try String(contentsOf: deploy.appendingPathComponent("Dockerfile"), encoding: .utf8)
        var steps: Set<String> = []
        for (name, manifest) in manifests where manifest["kind"] as? String == "CronJob" {
            let job = try XCTUnwrap(value(manifest, "spec.jobTemplate.spec") as? [String: Any], name)
            let pods = try XCTUnwrap(value(job, "template.spec.containers") as? [[String: Any]], name)
            XCTAssertEqual(value(job, "template.spec.restartPolicy") as? String, "Never", name)
            for container in pods {
                let command = try XCTUnwrap(container["command"] as? [String], name) + (container["args"] as? [String] ?? [])
                XCTAssertTrue(dockerfile.contains("COPY --from=build /src/.build/release/lectern \(command[0])"), "\(name): the image has \(command[0])")
                let env = container["env"] as? [[String: Any]] ?? []
                var environment: [String: String] = [:]
                for variable in env {
                    let variableName = try XCTUnwrap(variable["name"] as? String)
                    XCTAssertTrue(known.contains(variableName) || external.contains(variableName), "\(name): \(variableName) is read by no one")
                    if let literal = variable["value"] as? String {
                        XCTAssertFalse(literal.contains("://") && literal.contains("@"), "\(name): \(variableName): no connection URL inline")
                        environment[variableName] = literal
                    } else {
                        XCTAssertNotNil(value(variable, "valueFrom.secretKeyRef.name") as? String, "\(name): \(variableName) from a Secret")
                    }
                }
                XCTAssertNotNil(env.first { $0["name"] as? String == "LECTERN_DB" && value($0, "valueFrom.secretKeyRef") != nil },
                                "\(name): the library's URL from the Secret")
                XCTAssertNotNil(env.first { $0["name"] as? String == "PGPASSWORD" && value($0, "valueFrom.secretKeyRef") != nil },
                                "\(name): the password from the Secret")
                XCTAssertEqual(environment["LECTERN_MODELS"].map { dockerfile.contains("ENV LECTERN_MODELS=\($0)") }, true,
                               "\(name): the models where the image has them")
                XCTAssertNotNil(value(container, "resources.requests.memory") as? String, "\(name): memory requested")
                XCTAssertNotNil(value(container, "resources.requests.cpu") as? String, "\(name): cores requested")

                // Each option the pod names is in the subcommand's help.
                let arguments = Array(command.dropFirst())
                let help = try runLectern([arguments[0], "--help"], in: folder.url)
                XCTAssertEqual(help.status, 0, help.stderr)
                for option in arguments where option.hasPrefix("--") {
                    XCTAssertTrue(help.stdout.contains(option + " ") || help.stdout.contains(option + "\n"), "\(name): \(option) in `lectern \(arguments[0]) --help`")
                }
                if arguments[0] == "worker" {
                    // A Job of workers: the work-queue pattern (no completions), each pod until the queue is empty.
                    steps.insert("worker")
                    XCTAssertNil(job["completions"], "\(name): workers exit when the queue is empty, not after a count")
                    XCTAssertGreaterThanOrEqual(job["parallelism"] as? Int ?? 0, 2, "\(name): several workers")
                    XCTAssertTrue(arguments.contains("--exit-when-idle"), "\(name): the pods end with the night's work")
                    // On a real server with nothing queued, the pod's command exits 0 at once.
                    guard let server = try? PostgresServer.shared() else { continue }
                    environment["LECTERN_DB"] = try server.freshDatabase(for: Self.self)
                    let idle = try runLectern(arguments, in: folder.url, environment: environment)
                    XCTAssertEqual(idle.status, 0, "\(name): lectern \(arguments.joined(separator: " ")): \(idle.stderr)")
                    XCTAssertTrue(idle.stdout.contains(": 0 jobs done"), idle.stdout)
                    continue
                }
                // The pod's command, as each of its pods would run it, on a generated library.
                var runs: [[String]] = [arguments]
                if let shard = arguments.firstIndex(of: "--shard") {
                    XCTAssertEqual(job["completionMode"] as? String, "Indexed", name)
                    let count = try XCTUnwrap(Int(arguments[shard + 1].split(separator: "/").last ?? ""), "\(name): --shard I/N")
                    XCTAssertEqual(job["completions"] as? Int, count, "\(name): a pod a shard")
                    XCTAssertEqual(job["parallelism"] as? Int, count, "\(name): the shards side by side")
                    XCTAssertTrue(arguments[shard + 1].hasPrefix("$(JOB_COMPLETION_INDEX)/"), name)
                    runs = (0..<count).map { index in arguments.map { $0.replacingOccurrences(of: "$(JOB_COMPLETION_INDEX)", with: "\(index)") } }
                    steps.insert("shard")
                }
                if arguments.contains("--finish") { steps.insert("finish") }
                // The plan enqueued on PostgreSQL (a dry run connects to nothing).
                let queued = arguments.contains("--queue")
                if queued { steps.insert("queue") }
                environment["LECTERN_DB"] = queued ? "postgres://lectern@postgres.invalid/lectern" : folder.file("library.db").path
                environment["PGPASSWORD"] = "generated"
                var taken: [String] = []
                for run in runs {
                    let local = run.map { $0.replacingOccurrences(of: "/config/", with: folder.file("config").path + "/") }
                    let plan = try runLectern(local + ["--dry-run", "--json"], in: folder.url, environment: environment)
                    XCTAssertEqual(plan.status, 0, "\(name): lectern \(local.joined(separator: " ")): \(plan.stderr)")
                    let steps = try JSONDecoder().decode([PipelineStep].self, from: Data(plan.stdout.utf8))
                    taken += steps.filter { $0.stage == "ingest" }.map(\.subject)
                }
                if runs.count > 1 {
                    let whole = try runLectern(["run", folder.file("config/nightly.toml").path, "--dry-run", "--json"], in: folder.url, environment: environment)
                    let all = try JSONDecoder().decode([PipelineStep].self, from: Data(whole.stdout.utf8)).filter { $0.stage == "ingest" }.map(\.subject)
                    XCTAssertEqual(all.count, 4)
                    XCTAssertEqual(taken.sorted(), all.sorted(), "\(name): every source in exactly one pod's shard")
                }
            }
        }
        XCTAssertEqual(steps, ["shard", "finish", "queue", "worker"],
                       "an Indexed Job of shards and a finishing step; or the plan queued and a Job of workers")
        XCTAssertTrue(dockerfile.contains("FROM debian:"), "a Debian image")
    }
}
