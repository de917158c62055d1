package io.sluice.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code launcher}: the command line on a laptop or a login node. Each subcommand is one class.
 * Exit codes: 0 success, 1 the job ran and failed, 2 a problem with the command or the job file.
 */
@Command(name = "launcher", mixinStandardHelpOptions = true, versionProvider = Launcher.Version.class,
        description = "Sluice: filter, measure and deduplicate text corpora for LLM training, locally or on Slurm.",
        subcommands = {RunCommand.class, ValidateCommand.class, ReportCommand.class, SubmitCommand.class,
            StatusCommand.class, CancelCommand.class, CommandLine.HelpCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:a rank or command failed (the message names the file, line or rank)",
            "2:the job file or the command line is wrong"})
public final class Launcher {

    public static void main(String[] args) {
        try {
            System.exit(execute(args));
        } catch (OutOfMemoryError e) {
            // picocli's handler takes exceptions, not errors: this was a bare stack trace
            System.err.println("error: the launcher ran out of memory (" + e.getMessage() + "); SLUICE_JAVA_OPTS=-Xmx... gives"
                    + " it more");
            System.exit(1);
        }
    }

    public static int execute(String... args) {
        CommandLine cli = new CommandLine(new Launcher());
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("error: " + io.sluice.io.FileErrors.describe(e));
            return e instanceof io.sluice.job.JobException ? 2 : 1;
        });
        CommandLine.IParameterExceptionHandler usual = cli.getParameterExceptionHandler();
        cli.setParameterExceptionHandler((e, given) -> {
            CommandLine cmd = e.getCommandLine();
            if (e instanceof CommandLine.UnmatchedArgumentException u && cmd.getParent() == null
                    && !u.getUnmatched().isEmpty() && !u.getUnmatched().getFirst().startsWith("-")) {
                // picocli suggested the nearest command however far ("plan" got "Did you mean: launcher cancel?"); by
                // spelling alone, as the job file's hints for datatrove's names ("tasks", "config") are not for commands
                String word = u.getUnmatched().getFirst();
                java.util.Set<String> commands = cmd.getSubcommands().keySet();
                String near = io.sluice.job.Spelling.nearest(word, commands);
                cmd.getErr().println("error: '" + word + "' is not a launcher command" + (near == null ? "" : " (did you mean '"
                        + near + "'?)") + "; the commands: " + String.join(", ", commands) + " ('launcher help COMMAND' tells one)");
                return cmd.getCommandSpec().exitCodeOnInvalidInput();
            }
            return usual.handleParseException(e, given);
        });
        return cli.execute(args);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            Properties p = new Properties();
            try (InputStream in = Launcher.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            }
            return new String[] {"sluice " + p.getProperty("version", "unknown") + " (Java " + Runtime.version() + ")"};
        }
    }
}
