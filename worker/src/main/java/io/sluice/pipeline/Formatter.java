package io.sluice.pipeline;

import io.sluice.doc.Document;
import java.io.IOException;

/**
 * Base of every formatter (datatrove's {@code BaseFormatter}): a subclass only rewrites a text in
 * {@link #format}. This class puts the new text on the document, which is then written anew rather than as
 * the line it was read from, and counts the documents it changed ({@code formatted}); every document goes on.
 */
public abstract class Formatter implements Step {
    protected StepContext ctx;

    /** The text as it should be; {@code text} itself when nothing changes. */
    protected abstract String format(String text);

    @Override
    public void open(StepContext ctx) throws IOException {
        this.ctx = ctx;
    }

    @Override
    public final void process(Document doc, DocumentSink next) throws IOException {
        String text = doc.text();
        String formatted = format(text);
        if (formatted != text && !formatted.equals(text)) {
            doc.setText(formatted);
            ctx.stats().increment("formatted");
        }
        next.accept(doc);
    }
}
