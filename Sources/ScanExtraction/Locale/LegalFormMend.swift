import Foundation

// Legal forms as OCR misreads them, mended for the receipt's merchant and the card's organization alike.
extension Lexicon {
    /// A name that ends with a legal form of any locale misread in one character for its look-alike
    /// (`OCRConfusions`: `SON BHD`, `SDN 8HD`, `5/B`), or in up to two letters read as the digits they look like
    /// (`SP. Z 0.0.`), gets the form's characters back, in the printed case. A form of several words needs one of them
    /// exact; a one-word form, three characters or more.
    public func mendingLegalForm(_ name: String) -> String {
        // A dollar sign read for an `S` with a mark, or a plain one, in the form's last word (`A.$.` for Turkey's
        // `A.Ş.`, `$.R.L.`): the letter that makes the name end with a form, the marked one first.
        if let lastWord = name.split(separator: " ").last, lastWord.contains("$") {
            let head = name.dropLast(lastWord.count)
            for letter in ["Ş", "S"] {
                let mended = head + lastWord.replacingOccurrences(of: "$", with: letter)
                let key = Text.key(String(mended))
                if legalForms.phrases.contains(where: { key.hasSuffix(" " + $0) }) { return String(mended) }
            }
        }
        // The name's key (as Text.key makes it), with where each letter or digit was printed.
        var key: [Character] = [], at: [String.Index?] = []
        var i = name.startIndex
        while i < name.endIndex {
            let c = name[i]
            if let a = c.asciiValue, Text.asciiAlphanumeric(a) {
                key.append(Character(Unicode.Scalar(Text.asciiUppercased(a))))
                at.append(i)
            } else if c.asciiValue == nil, c.isLetter || c.isNumber {
                key.append(contentsOf: c.uppercased())
                at.append(i)
            } else if key.last != nil && key.last != " " {
                key.append(" ")
                at.append(nil)
            }
            i = name.index(after: i)
        }
        if key.last == " " { key.removeLast(); at.removeLast() }
        guard key.count == at.count, key.count >= 3 else { return name }
        // A mend keeps the spaces where they are, so only a form whose words are as long as the key's last words,
        // after one word at least, can end it.
        var keyWordLengths: [Int] = [], length = 0
        for c in key.reversed() {
            if c == " " { keyWordLengths.append(length); length = 0 } else { length += 1 }
        }
        // Longest forms first: `SON BHD` is `SDN BHD` misread, though `BHD` alone is a form too.
        for form in legalFormsLongestFirst where keyWordLengths.starts(with: form.wordLengthsFromEnd) {
            let f = form.characters
            guard f.count < key.count, key[key.count - f.count - 1] == " " else { continue }
            let tail = key[(key.count - f.count)...]
            if tail.elementsEqual(f) { return name }
            var differing: [Int] = []
            for (k, (a, b)) in zip(tail.indices, zip(tail, f)) where a != b { differing.append(k) }
            // One letter OCR confuses with another (`SON BHD`), or up to two digits read for the letters they look like
            // (`SP. Z 0.0.`, `5DN BHD`).
            let oneSlip = differing.count == 1
                && OCRConfusions.shipped.confusable(key[differing[0]], f[differing[0] - tail.startIndex])
            let digitsForLetters = (1...2).contains(differing.count)
                && differing.allSatisfy { Self.digitReadForLetter(key[$0], f[$0 - tail.startIndex]) }
            guard oneSlip || digitsForLetters,
                differing.allSatisfy({ key[$0] != " " && f[$0 - tail.startIndex] != " " })
            else { continue }
            guard f.contains(" ") || f.count >= 3, differing.allSatisfy({ at[$0] != nil }) else { continue }
            var mended = name
            // The form's other letters give the case: `s.r.I.` is `s.r.l.`, a capital I being a lower-case l's
            // look-alike.
            let others = tail.indices.filter { !differing.contains($0) }.compactMap { at[$0].map { name[$0] } }.filter(
                \.isLetter)
            let lowerForm = !others.isEmpty && others.allSatisfy(\.isLowercase)
            // (Each mend puts one ASCII letter for one ASCII character, so `name`'s indices hold in `mended`.)
            for k in differing {
                let index = at[k]!, right = f[k - tail.startIndex]
                let printed = name[index]
                // (Or the letter right before it, a full stop between, where the form mixes cases: `S.à r.I.` is
                // `S.à r.l.`; not across a space, `Sdn 8hd` is `Sdn Bhd`.)
                let before = k >= 2 && !differing.contains(k - 2) ? at[k - 2] : nil
                let dotted = before.map { b in name[name.index(after: b)..<index] == "." } ?? false
                let letter = printed.isLowercase || lowerForm || dotted && before.map({ name[$0].isLowercase }) == true
                    ? Character(right.lowercased()) : right
                mended.replaceSubrange(index...index, with: String(letter))
            }
            return mended
        }
        return name
    }

    /// Whether `digit` is a digit OCR reads for the letter `letter`: a digit-and-letter pair of the learned confusions
    /// (`OCRConfusions`: 0 for O, 1 for I or L, 5 for S, 8 for B, 2 for Z).
    static func digitReadForLetter(_ digit: Character, _ letter: Character) -> Bool {
        digit.isASCII && digit.isNumber && letter.isLetter && OCRConfusions.shipped.confusable(digit, letter)
    }
}

/// A legal form as `mendingLegalForm` compares it: its characters, and its words' lengths from the last one back.
struct LegalFormSpelling: Sendable {
    let characters: [Character]
    let wordLengthsFromEnd: [Int]

    init(_ form: String) {
        characters = Array(form)
        wordLengthsFromEnd = form.split(separator: " ").reversed().map(\.count)
    }
}
