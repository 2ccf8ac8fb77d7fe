import Foundation
import XCTest
@testable import Lectern

/// A worked example the source gives right after naming a concept becomes "Which fallacy does
/// this example show?" with the concept as the answer; an example after two concepts, one that
/// names its concept, and one voice of a dialogue make none.
final class CardExampleTests: XCTestCase {
    static let text = """
        Emotional appeals can target any number of emotions, from fear to pity. For the most part, an appeal to emotion is not relevant for establishing the conclusion. Here’s an example:
        I know the allegations against the governor seem serious. However, he’s in his 80s now, and he fought for our country in the Korean War. We don’t want to put an elderly veteran through the ordeal of a trial. I urge you to drop the charges.
        In this example, the arguer appeals to our feelings of pity and compassion.
        A strawman occurs when an arguer presents a weaker version of the position they are arguing against. Here is an example:
        Senator: It is important that the path to citizenship be governed by established legal procedure, and we must only reward citizenship to those who followed the laws.
        Opponent: The senator wants to deport every immigrant who ever lived here, so we cannot trust him.
        Both a strawman and an appeal to emotion can hide in one speech. Take the following example:
        We cannot let these people in, think of your children, and the senator only wants chaos and crime in every town of this great country of ours.
        """

    func testAnExampleOfOneNamedConceptAsksForIt() {
        let glossary = """
            appeal to emotion: a fallacy of relevance that plays on the feelings of the audience instead of giving reasons
            strawman: a fallacy of diversion that attacks a weaker version of the opposing position
            """
        let passages = [CardQualityTests.passage(1, Self.text), CardQualityTests.passage(2, glossary, kind: .glossary, section: ["Glossary"])]
        let (cards, _) = CardGeneration.offline(CardQualityTests.curriculum(passages))
        let examples = cards.filter { $0.origin == .example }
        XCTAssertEqual(examples.map(\.back), ["Appeal to emotion"], "\(examples.map(\.front))")
        XCTAssertEqual(examples.first?.front, "Which fallacy does this example show? “I know the allegations against the governor seem serious. However, he’s in his 80s now, and he fought for our country in the Korean War. We don’t want to put an elderly veteran through the ordeal of a trial. I urge you to drop the charges.”")
        XCTAssertEqual(examples.first?.quality?.score, 1, "\(examples.first?.quality?.checks ?? [])")
    }
}
