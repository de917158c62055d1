package io.sluice.doc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One document flowing through a pipeline: id, text, metadata, and the JSON line it was read from.
 *
 * <p>A document read from JSONL is a <em>view</em>: {@link #originalLineBuffer()} may be a buffer
 * the reader reuses for the next line. Steps run synchronously, one document at a time, so the view
 * is valid until the step returns; a step that keeps a document longer must call {@link #detach()}.
 *
 * <p>Fields are decoded when a step asks: the text on the first {@link #text()}, the metadata on the
 * first {@link #metadata()}. A document that no step modified is written back as its original bytes;
 * {@link #setText}, {@link #putMetadata} mark it modified, and the
 * writer then serialises it.
 *
 * <p>Metadata is parsed only when read: {@link #putMetadata} on unparsed metadata is kept aside and
 * applied, in order, when the map is first built, and {@link #metadataValue} answers "absent" without
 * parsing when the line's bytes cannot hold the key. The statistics steps add a value per stat to every
 * document and look for a URL and a token count; parsing each document's metadata for that (with
 * Jackson, nested values and all) cost more than some of the statistics.
 */
public final class Document {
    /** Parses the metadata of a line when a step first asks for it. */
    public interface LineParser {
        /** The line's metadata; IllegalArgumentException when the parser refuses it. */
        Map<String, Object> metadata(byte[] buf, int off, int len);

        String text(byte[] buf, int start, int end, boolean escaped);

        /**
         * False when the metadata of the line {@code buf[off:off+len]}, whose text value is
         * {@code buf[textStart:textEnd]}, certainly has no key {@code key}; true when it may.
         */
        boolean mayHaveKey(byte[] buf, int off, int len, int textStart, int textEnd, String key);

        /** The line's datatrove {@code media} value as parsed JSON, or null when it has none. */
        Object media(byte[] buf, int off, int len, int textStart, int textEnd);
    }

    private String id;
    private String text;
    private Map<String, Object> metadata;
    /** Puts made before the metadata was parsed: key, value, key, value... */
    private List<Object> pendingPuts;
    private LineParser parser;
    private byte[] lineBuffer;
    private int lineOffset;
    private int lineLength;
    private int textStart;
    private int textEnd;
    private boolean textEscaped;
    /** {@link #textLength}, once known (the reader counts it as it scans the line); -1 before. */
    private int textLength = -1;
    /** False when the document's line certainly has no {@code token_count} and no step has put one. */
    private boolean mayHaveTokenCount = true;
    private boolean modified;
    /** Keys the line's bytes cannot hold ({@link #lineMayHaveKey}); null until the first. */
    private String[] absentKeys;
    private int absentCount;
    /** datatrove's media field of the line, once looked up ({@link #media}). */
    private Object media;
    private boolean mediaLookedUp;
    /** A value a step derived for this document for later steps to reuse, under its key ({@link #note}). */
    private Object noteKey;
    private Object noteValue;
    private String sourceFile;
    private long sourceLine;
    private long sourceByte;

    /** Where a document came from; used in error messages. {@code lineNumber} is -1 when unknown. */
    public record SourcePosition(String file, long lineNumber, long byteOffset) {
        @Override
        public String toString() {
            return file + (lineNumber >= 0 ? ":" + lineNumber : "") + " (byte " + byteOffset + ")";
        }
    }

    public Document(String id, String text, Map<String, Object> metadata) {
        this.id = id;
        this.text = text;
        this.metadata = metadata == null ? new LinkedHashMap<>() : metadata;
        this.modified = true;
    }

    private Document() {
    }

    /**
     * A document that is a view of a JSON line: the text is the JSON string at
     * [{@code textStart}, {@code textEnd}) of the buffer, decoded by {@code parser} when first asked;
     * {@code textLength} is its length in code points; {@code mayHaveTokenCount} false when no field of the line is
     * named {@code token_count}.
     */
    public static Document fromLine(String id, byte[] buf, int off, int len, int textStart, int textEnd,
                                    boolean textEscaped, int textLength, boolean mayHaveTokenCount, LineParser parser,
                                    String file, long line, long byteOffset) {
        Document d = new Document();
        d.id = id;
        d.lineBuffer = buf;
        d.lineOffset = off;
        d.lineLength = len;
        d.textStart = textStart;
        d.textEnd = textEnd;
        d.textEscaped = textEscaped;
        d.textLength = textLength;
        d.mayHaveTokenCount = mayHaveTokenCount;
        d.parser = parser;
        d.sourceFile = file;
        d.sourceLine = line;
        d.sourceByte = byteOffset;
        return d;
    }

    public String id() {
        return id;
    }

    public String text() {
        if (text == null) {
            text = parser.text(lineBuffer, textStart, textEnd, textEscaped);
        }
        return text;
    }

    /** Read-only view of the metadata (parsed on first call). */
    public Map<String, Object> metadata() {
        if (metadata == null) {
            try {
                metadata = parser == null ? new LinkedHashMap<>() : parser.metadata(lineBuffer, lineOffset, lineLength);
            } catch (IllegalArgumentException e) {
                // the reader refuses what the parser would (JsonLineScanner); should they ever disagree, name the document
                throw new IllegalArgumentException(describe() + ": its metadata could not be parsed: " + e.getMessage(), e);
            }
            if (pendingPuts != null) {
                for (int i = 0; i < pendingPuts.size(); i += 2) {
                    metadata.put((String) pendingPuts.get(i), pendingPuts.get(i + 1));
                }
                pendingPuts = null;
            }
        }
        return metadata;
    }

    /** Sets a metadata value and marks the document modified; does not parse the metadata. */
    public void putMetadata(String key, Object value) {
        modified = true;
        mayHaveTokenCount |= key.equals(TOKEN_COUNT);
        if (metadata != null) {
            metadata.put(key, value);
            return;
        }
        if (pendingPuts == null) {
            pendingPuts = new ArrayList<>();
        }
        pendingPuts.add(key);
        pendingPuts.add(value);
    }

    /**
     * {@code metadata().get(key)}, without parsing the metadata when a value was put under the key or
     * the line cannot hold it.
     */
    public Object metadataValue(String key) {
        if (metadata != null) {
            return metadata.get(key);
        }
        if (pendingPuts != null) {
            for (int i = pendingPuts.size() - 2; i >= 0; i -= 2) {
                if (pendingPuts.get(i).equals(key)) {
                    return pendingPuts.get(i + 1);
                }
            }
        }
        if (parser == null || !lineMayHaveKey(key)) {
            return null;
        }
        return metadata().get(key);
    }

    /**
     * The parser's {@code mayHaveKey} for this line, its "no" remembered: three statistics steps each asked
     * for a URL and a token count that most lines lack, and each time the line's bytes were searched again.
     */
    private boolean lineMayHaveKey(String key) {
        for (int i = 0; i < absentCount; i++) {
            if (absentKeys[i] == key || absentKeys[i].equals(key)) {
                return false;
            }
        }
        if (parser.mayHaveKey(lineBuffer, lineOffset, lineLength, textStart, textEnd, key)) {
            return true;
        }
        if (absentKeys == null) {
            absentKeys = new String[4];
        } else if (absentCount == absentKeys.length) {
            absentKeys = java.util.Arrays.copyOf(absentKeys, 2 * absentCount);
        }
        absentKeys[absentCount++] = key;
        return false;
    }

    public void setText(String newText) {
        if (!newText.equals(text())) {
            text = newText;
            textLength = -1;
            modified = true;
        }
    }

    /**
     * The {@code token_count} metadata (datatrove's tokenizer puts it there), or null. Every step asks, for its
     * {@code doc_len_tokens}: for a line without such a field it is a field read.
     */
    public Object tokenCount() {
        return mayHaveTokenCount ? metadataValue(TOKEN_COUNT) : null;
    }

    private static final String TOKEN_COUNT = "token_count";

    /**
     * The text's length in code points, as Python's {@code len(text)} (datatrove's {@code doc_len}): a surrogate
     * pair counts once, a lone surrogate once. A document read from a line knows it without decoding its text.
     */
    public int textLength() {
        if (textLength < 0) {
            String t = text();
            textLength = t.codePointCount(0, t.length());
        }
        return textLength;
    }

    /**
     * datatrove's {@code media} field of the line the document was read from (a list of media objects), as
     * parsed JSON, or null when it has none: Sluice's steps do not use it, but a serialised document keeps it.
     */
    public Object media() {
        if (!mediaLookedUp) {
            media = parser == null || lineBuffer == null ? null : parser.media(lineBuffer, lineOffset, lineLength, textStart, textEnd);
            mediaLookedUp = true;
        }
        return media;
    }

    /** Makes the writer serialise this document rather than copy its line (which would not read back as it). */
    public void requireSerialising() {
        modified = true;
    }

    /** True when the writer must serialise this document instead of copying its original line. */
    public boolean mustSerialise() {
        return modified || lineBuffer == null;
    }

    public byte[] originalLineBuffer() {
        return lineBuffer;
    }

    public int originalLineOffset() {
        return lineOffset;
    }

    public int originalLineLength() {
        return lineLength;
    }

    /** Where the document was read, or null for a document made by a step. */
    public SourcePosition source() {
        return sourceFile == null ? null : new SourcePosition(sourceFile, sourceLine, sourceByte);
    }

    /**
     * False only when no key {@code key} occurs at any depth of the metadata, decided, for an unparsed line,
     * from its bytes without parsing (true when unsure).
     */
    public boolean mayHaveMetadataKey(String key) {
        if (metadata != null || parser == null) {
            return true;
        }
        if (pendingPuts != null) {
            for (int i = 0; i < pendingPuts.size(); i += 2) {
                if (pendingPuts.get(i).equals(key)) {
                    return true; // put here, at the top level
                }
            }
        }
        return lineMayHaveKey(key);
    }

    /** "document 'ID'" and where it was read, for log and error messages. */
    public String describe() {
        return "document '" + id + "'" + (sourceFile == null ? "" : " (" + source() + ")");
    }

    /**
     * What a step noted for this document under {@code key} ({@link #putNote}), or null: a value derived from
     * the document that later steps may reuse, never written out. One note a document; a new key replaces it.
     */
    public Object note(Object key) {
        return noteKey != null && noteKey.equals(key) ? noteValue : null;
    }

    public void putNote(Object key, Object value) {
        noteKey = key;
        noteValue = value;
    }

    /** Decodes every field and copies the original line out of the reader's buffer, so the document may be kept. */
    public Document detach() {
        text();
        metadata();
        media();
        if (lineBuffer != null) {
            byte[] copy = new byte[lineLength];
            System.arraycopy(lineBuffer, lineOffset, copy, 0, lineLength);
            lineBuffer = copy;
            lineOffset = 0;
        }
        parser = null;
        return this;
    }

    @Override
    public String toString() {
        return "Document{id=" + id + "}";
    }
}
