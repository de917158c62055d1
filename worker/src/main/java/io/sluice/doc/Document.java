package io.sluice.doc;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One document flowing through a pipeline: id, text, metadata, and the JSON line it was read from.
 *
 * <p>A document read from JSONL is a <em>view</em>: {@link #originalLine()} may point into a buffer
 * the reader reuses for the next line. Steps run synchronously, one document at a time, so the view
 * is valid until the step returns; a step that keeps a document longer must call {@link #detach()}.
 *
 * <p>Metadata is parsed only when a step asks for it. A document that no step modified is written
 * back as its original bytes; {@link #setText}, {@link #putMetadata} and {@link #metadataForUpdate()}
 * mark it modified, and the writer then serialises it.
 */
public final class Document {
    private String id;
    private String text;
    private Map<String, Object> metadata;
    private Supplier<Map<String, Object>> metadataLoader;
    private byte[] lineBuffer;
    private int lineOffset;
    private int lineLength;
    private boolean modified;
    private SourcePosition source;

    /** Where a document came from; used in error messages and the default id. */
    public record SourcePosition(String file, long lineNumber, long byteOffset) {
        @Override
        public String toString() {
            return file + ":" + lineNumber + " (byte " + byteOffset + ")";
        }
    }

    public Document(String id, String text, Map<String, Object> metadata) {
        this.id = id;
        this.text = text;
        this.metadata = metadata == null ? new LinkedHashMap<>() : metadata;
        this.modified = true;
    }

    /**
     * A document read from a JSON line. {@code metadataLoader} parses the metadata from the line
     * when first asked; it must not be called after the line buffer was reused unless detached.
     */
    public static Document fromLine(String id, String text, byte[] buf, int off, int len,
                                    Supplier<Map<String, Object>> metadataLoader, SourcePosition source) {
        Document d = new Document(id, text, null);
        d.metadata = null;
        d.metadataLoader = metadataLoader;
        d.lineBuffer = buf;
        d.lineOffset = off;
        d.lineLength = len;
        d.modified = false;
        d.source = source;
        return d;
    }

    public String id() {
        return id;
    }

    public String text() {
        return text;
    }

    /** Read-only view of the metadata (parsed on first call). */
    public Map<String, Object> metadata() {
        if (metadata == null) {
            metadata = metadataLoader == null ? new LinkedHashMap<>() : metadataLoader.get();
            metadataLoader = null;
        }
        return metadata;
    }

    /** Metadata for a step that changes it; marks the document modified. */
    public Map<String, Object> metadataForUpdate() {
        modified = true;
        return metadata();
    }

    public void putMetadata(String key, Object value) {
        metadataForUpdate().put(key, value);
    }

    public void setText(String newText) {
        if (!newText.equals(text)) {
            text = newText;
            modified = true;
        }
    }

    public void setId(String newId) {
        if (!newId.equals(id)) {
            id = newId;
            modified = true;
        }
    }

    /** True when the writer must serialise this document instead of copying its original line. */
    public boolean isModified() {
        return modified || lineBuffer == null;
    }

    public boolean hasOriginalLine() {
        return lineBuffer != null;
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

    public SourcePosition source() {
        return source;
    }

    /** Copies the original line out of the reader's buffer and parses metadata, so the document may be kept. */
    public Document detach() {
        metadata();
        if (lineBuffer != null) {
            byte[] copy = new byte[lineLength];
            System.arraycopy(lineBuffer, lineOffset, copy, 0, lineLength);
            lineBuffer = copy;
            lineOffset = 0;
        }
        return this;
    }

    @Override
    public String toString() {
        return "Document{id=" + id + ", chars=" + (text == null ? 0 : text.length()) + "}";
    }
}
