package io.sluice.text;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The special cases ("tokenizer exceptions") of spaCy's English tokenizer: whole chunks of text
 * that are split in a fixed way instead of by the punctuation rules, e.g. "don't" -> "do" "n't",
 * "cannot" -> "can" "not", "gonna" -> "gon" "na", or kept whole, e.g. "U.S."-style abbreviations
 * such as "e.g." and "Dr.", and emoticons such as ":)".
 *
 * <p>The table is generated here by the same rules spaCy 3.8 uses (spacy/lang/tokenizer_exceptions.py
 * and spacy/lang/en/tokenizer_exceptions.py): contractions for pronouns, wh-words and modal verbs,
 * each with and without the apostrophe and in lower and title case; then every entry holding a
 * straight apostrophe is duplicated with a typographic one (U+2019). Only the token texts matter
 * here (spaCy's NORM values do not change the tokenization).
 */
final class EnglishTokenizerExceptions {
    private final Map<String, String[]> table = new LinkedHashMap<>();

    private EnglishTokenizerExceptions() {
    }

    /** chunk text -> the token texts it is split into (their concatenation is the chunk). */
    static Map<String, String[]> build() {
        EnglishTokenizerExceptions base = new EnglishTokenizerExceptions();
        base.addLanguageIndependent();
        EnglishTokenizerExceptions english = new EnglishTokenizerExceptions();
        english.addEnglish();
        Map<String, String[]> merged = new LinkedHashMap<>(base.table);
        merged.putAll(english.table);
        // Typographic-apostrophe variants of every entry that has a straight apostrophe.
        Map<String, String[]> expanded = new LinkedHashMap<>(merged);
        merged.forEach((chunk, pieces) -> {
            if (chunk.indexOf('\'') >= 0) {
                String[] curly = Arrays.stream(pieces).map(p -> p.replace('\'', '\u2019')).toArray(String[]::new);
                expanded.put(chunk.replace('\'', '\u2019'), curly);
            }
        });
        return expanded;
    }

    private void add(String... pieces) {
        table.put(String.join("", pieces), pieces);
    }

    private void addWhole(String... chunks) {
        for (String chunk : chunks) {
            add(chunk);
        }
    }

    private static String title(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** Entries shared by all languages: whitespace, single letters with a period, emoticons. */
    private void addLanguageIndependent() {
        addWhole(" ", "\t", "\\t", "\n", "\\n", "\u2014", "\u00a0");
        addWhole("'", "\\\")", "<space>", "''", "C++");
        for (char c = 'a'; c <= 'z'; c++) {
            add(c + ".");
        }
        addWhole("\u00e4.", "\u00f6.", "\u00fc.");
        addWhole(EMOTICONS.trim().split("\\s+"));
        for (char unit : "cfkCFK".toCharArray()) {
            add("\u00b0", String.valueOf(unit), ".");
        }
    }

    private static final String EMOTICONS = """
            :) :-) :)) :-)) :))) :-))) (: (-: =) (= :] :-] [: [-: [= =] :o) (o: :} :-} 8) 8-) (-8 ;) ;-) (;
            (-; :( :-( :(( :-(( :((( :-((( ): )-: =( >:( :') :'-) :'( :'-( :/ :-/ =/ =| :| :-| ]= =[ :1
            :P :-P :p :-p :O :-O :o :-o :0 :-0 :() >:o :* :-* :3 :-3 =3 :> :-> :X :-X :x :-x :D :-D ;D
            ;-D =D xD XD xDD XDD 8D 8-D ^_^ ^__^ ^___^ >.< >.> <.< ._. ;_; -_- -__- v.v V.V v_v V_V o_o
            o_O O_o O_O 0_o o_0 0_0 o.O O.o O.O o.o 0.0 o.0 0.o @_@ <3 <33 <333 </3 (^_^) (-_-) (._.)
            (>_<) (*_*) (\u00ac_\u00ac) \u0ca0_\u0ca0 \u0ca0\ufe35\u0ca0 (\u0ca0_\u0ca0) \u00af\\(\u30c4)/\u00af
            (\u256f\u00b0\u25a1\u00b0\uff09\u256f\ufe35\u253b\u2501\u253b ><(((*>
            """;

    /** English contractions, abbreviations and colloquial forms. */
    private void addEnglish() {
        for (String orth : List.of("i", "I")) {
            add(orth, "'m");
            add(orth, "m");
            add(orth, "'m", "a");
            add(orth, "m", "a");
        }
        for (String pron : List.of("i", "you", "he", "she", "it", "we", "they")) {
            for (String orth : List.of(pron, title(pron))) {
                addWillAndWould(orth);
            }
        }
        for (String pron : List.of("i", "you", "we", "they")) {
            for (String orth : List.of(pron, title(pron))) {
                add(orth, "'ve");
                add(orth, "ve");
            }
        }
        for (String pron : List.of("you", "we", "they")) {
            for (String orth : List.of(pron, title(pron))) {
                add(orth, "'re");
                add(orth, "re");
            }
        }
        for (String pron : List.of("he", "she", "it")) {
            for (String orth : List.of(pron, title(pron))) {
                add(orth, "'s");
                add(orth, "s");
            }
        }
        addWhWords();
        addVerbs();
        addColloquial();
        for (int h = 1; h <= 12; h++) {
            for (String period : List.of("a.m.", "am", "p.m.", "pm")) {
                add(String.valueOf(h), period);
            }
        }
        addWhole(ABBREVIATIONS.trim().split("\\s+"));
        for (String excluded : List.of("Ill", "ill", "Its", "its", "Hell", "hell", "Shell", "shell", "Shed", "shed",
                "were", "Were", "Well", "well", "Whore", "whore")) {
            table.remove(excluded); // generated above but real words
        }
    }

    private void addWillAndWould(String orth) {
        add(orth, "'ll");
        add(orth, "ll");
        add(orth, "'ll", "'ve");
        add(orth, "ll", "ve");
        add(orth, "'d");
        add(orth, "d");
        add(orth, "'d", "'ve");
        add(orth, "d", "ve");
    }

    private void addWhWords() {
        List<String> singular = List.of("that", "this");
        List<String> plural = List.of("these", "those");
        for (String word : List.of("who", "what", "when", "where", "why", "how", "there", "that", "this", "these",
                "those")) {
            for (String orth : List.of(word, title(word))) {
                if (!plural.contains(word)) {
                    add(orth, "'s");
                    add(orth, "s");
                }
                add(orth, "'ll");
                add(orth, "ll");
                add(orth, "'ll", "'ve");
                add(orth, "ll", "ve");
                if (!singular.contains(word)) {
                    add(orth, "'re");
                    add(orth, "re");
                    add(orth, "'ve");
                    add(orth, "ve");
                }
                add(orth, "'d");
                add(orth, "d");
                add(orth, "'d", "'ve");
                add(orth, "d", "ve");
            }
        }
    }

    private void addVerbs() {
        for (String verb : List.of("ca", "could", "do", "does", "did", "had", "may", "might", "must", "need", "ought",
                "sha", "should", "wo", "would")) {
            for (String orth : List.of(verb, title(verb))) {
                add(orth, "n't");
                add(orth, "nt");
                add(orth, "n't", "'ve");
                add(orth, "nt", "ve");
            }
        }
        for (String verb : List.of("could", "might", "must", "should", "would")) {
            for (String orth : List.of(verb, title(verb))) {
                add(orth, "'ve");
                add(orth, "ve");
            }
        }
        for (String verb : List.of("ai", "are", "is", "was", "were", "have", "has", "dare")) {
            for (String orth : List.of(verb, title(verb))) {
                add(orth, "n't");
                add(orth, "nt");
            }
        }
    }

    private void addColloquial() {
        for (String word : List.of("doin", "goin", "nothin", "nuthin", "ol", "somethin")) {
            for (String orth : List.of(word, title(word))) {
                add(orth);
                add(orth + "'");
            }
        }
        for (String word : List.of("em", "ll", "nuff")) {
            add(word);
            add("'" + word);
        }
        add("y'", "all");
        add("y", "all");
        add("how", "'d", "'y");
        add("How", "'d", "'y");
        add("not", "'ve");
        add("not", "ve");
        add("Not", "'ve");
        add("Not", "ve");
        add("can", "not");
        add("Can", "not");
        add("gon", "na");
        add("Gon", "na");
        add("got", "ta");
        add("Got", "ta");
        add("let", "'s");
        add("Let", "'s");
        add("c'm", "on");
        add("C'm", "on");
    }

    /** Chunks kept as one token: clitics, colloquial forms, abbreviations (US states, months, titles). */
    private static final String ABBREVIATIONS = """
            'S 's \u2018S \u2018s and/or w/o 're 'Cause 'cause 'cos 'Cos 'coz 'Coz 'cuz 'Cuz 'bout ma'am Ma'am
            o'clock O'clock lovin' Lovin' lovin Lovin havin' Havin' havin Havin doin' Doin' doin Doin goin' Goin'
            goin Goin Mt. Ak. Ala. Apr. Ariz. Ark. Aug. Calif. Colo. Conn. Dec. Del. Feb. Fla. Ga. Ia. Id. Ill.
            Ind. Jan. Jul. Jun. Kan. Kans. Ky. La. Mar. Mass. Mich. Minn. Miss. N.C. N.D. N.H. N.J. N.M. N.Y.
            Neb. Nebr. Nev. Nov. Oct. Okla. Ore. Pa. S.C. Sep. Sept. Tenn. Va. Wash. Wis.
            'd a.m. Adm. Bros. co. Co. Corp. D.C. Dr. e.g. E.g. E.G. Gen. Gov. i.e. I.e. I.E. Inc. Jr. Ltd. Md.
            Messrs. Mo. Mont. Mr. Mrs. Ms. p.m. Ph.D. Prof. Rep. Rev. Sen. St. vs. v.s.
            """;
}
