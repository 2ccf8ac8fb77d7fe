import Foundation
import XCTest
@testable import Lectern

/// A passage too short to answer anything (a name under a long section header) is embedded
/// mostly as its header: it must not outrank the passage that answers, in semantic or hybrid
/// search, and it is still found by its own words.
final class ShortPassageRankingTests: CommandTestCase {
    func testANameUnderALongHeaderDoesNotOutrankTheAnswer() throws {
        try folder.write("course/skating.md", """
            # Rotational motion

            ## Why a spinning figure skater speeds up when she pulls her arms in

            Instructor: Caleb Bonyun

            ## Angular momentum

            A skater turning on the ice keeps her angular momentum: when she draws her arms close to her body her moment
            of inertia falls, so her rate of rotation rises until she opens them again. Divers and cats use the same effect
            to turn in the air, and a spinning star that collapses turns faster for the same reason. Angular momentum is the
            product of the moment of inertia and the angular velocity, and with no torque from outside it stays the same.
            The moment of inertia adds up each part of the body's mass times the square of its distance from the axis, so
            arms held out count for much more than arms held in. Friction from the ice is small and acts close to the axis,
            so over one spin the skater loses little of her angular momentum. Her kinetic energy does rise as she pulls in:
            the work her muscles do against the outward pull of her own turning arms becomes the energy of the faster spin.
            When she opens her arms again the same energy goes back into her arms, and she slows to her earlier rate.
            A figure skater in a fast spin can reach several turns a second, and judges reward a spin that speeds up
            smoothly. Coaches teach the arms to come in along the body, not in front of it, so that the axis stays upright.
            The same law explains why a pulsar turns hundreds of times a second and why a helicopter needs a tail rotor.
            """)
        XCTAssertEqual(try runLectern(["ingest", "course"], in: folder.url).status, 0)
        let question = "why does a spinning figure skater speed up when pulling her arms in"
        for mode in ["semantic", "hybrid"] {
            let result = try runLectern(["search", question, "--mode", mode, "--json"], in: folder.url)
            XCTAssertEqual(result.status, 0, result.stderr)
            let hits = try JSONDecoder().decode([SearchHit].self, from: Data(result.stdout.utf8))
            let answers = hits.indices.filter { hits[$0].text.contains("skater") && hits[$0].text.count > 200 }
            let stub = hits.firstIndex { $0.text == "Instructor: Caleb Bonyun" }
            XCTAssertEqual(answers.count, 2, "\(mode): \(hits.map(\.text))")
            XCTAssertEqual(answers.first, 0, "\(mode): the answer first, not the name: \(hits.map(\.text))")
            XCTAssertGreaterThan(stub ?? .max, answers.last ?? .max, "\(mode): the name after both passages that answer")
        }
        let byName = try runLectern(["search", "Caleb Bonyun", "--json"], in: folder.url)
        let named = try JSONDecoder().decode([SearchHit].self, from: Data(byName.stdout.utf8))
        XCTAssertEqual(named.first?.text, "Instructor: Caleb Bonyun")
    }
}
