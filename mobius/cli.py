"""The `mobius` command: parses arguments, calls the layers, prints.

Covers: the top-level typer app, its sub-command groups (one module each) and
the one place where every way a command can fail becomes one line on stderr
with its exit code: bad input and bad options (2), an interruption (130:
Ctrl-C, SIGTERM or SIGHUP, which `mobius.interrupts` turns into
KeyboardInterrupt from the start of the process; the line names the signal). It
runs the same way from the console script and from typer's CliRunner, since
both go through `MobiusGroup.main`. Leaves out: any modelling or solving,
which lives in `cpmodel`, and any pack or benchmark logic, which lives in
`generators` and `benchmarks`.

Start-up: the sub-command modules import only typer at load time; each
command imports the layers it uses when it runs, so `mobius --help` and the
light commands never load ortools, numpy, sympy or matplotlib.
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

try:  # typer >= 0.20 carries its own copy of click
    from typer._click import Context
    from typer._click import exceptions as click_errors
except ImportError:  # older typer runs on click itself
    from click import Context
    from click import exceptions as click_errors

from mobius.cpmodel.errors import InputError
from mobius.dictionaries.errors import DictionaryError
from mobius import bench_cli, clues_cli, crossword_cli, instance_cli, pack_cli, render_cli, slider_cli
from mobius.error_line import error_line
from mobius.exits import EXIT_BAD_INPUT, EXIT_INTERRUPTED
from mobius.interrupts import interruption, settle

def _os_error_message(exc: OSError) -> str:
    reason = exc.strerror or str(exc) or type(exc).__name__
    return f"{exc.filename}: {reason}" if exc.filename else reason


def _usage_message(exc: Any) -> str:
    """The usage error with the subcommand it is about ("pack crossword: …"); the error line says
    "mobius" already, so the top-level command is not named again."""
    ctx = getattr(exc, "ctx", None)
    sub = ctx.command_path.partition(" ")[2] if ctx is not None else ""
    where = f"{sub}: " if sub else ""
    hint = f" (see '{ctx.command_path} --help')" if ctx is not None and ctx.command.get_help_option(ctx) else ""
    return f"{where}{exc.format_message()}{hint}"


def run_command(command: Any, prog_name: str, args: list[str], extra: dict[str, Any]) -> int:
    """Run the click command on `args`; every failure is one line on stderr and an exit code."""
    try:
        with command.make_context(prog_name, args, **extra) as ctx:
            command.invoke(ctx)
        return 0
    except typer.Exit as exc:
        return exc.exit_code
    except click_errors.NoArgsIsHelpError as exc:
        # The help was already printed (typer's rich help prints as it is formatted).
        if exc.format_message().strip():
            print(exc.format_message(), file=sys.stderr)
        return exc.exit_code
    except click_errors.UsageError as exc:
        error_line(_usage_message(exc))
        return exc.exit_code
    except click_errors.ClickException as exc:
        error_line(exc.format_message())
        return exc.exit_code
    except (typer.Abort, KeyboardInterrupt, EOFError) as exc:
        return _interrupted(_interrupt_in(exc) or exc)
    except ImportError as exc:
        # Ctrl-C while a compiled module (OR-Tools, numba) initialises comes
        # back as ImportError("initialization failed") raised from the
        # KeyboardInterrupt: an interruption, not a broken install.
        cause = _interrupt_in(exc)
        if cause is None:
            raise
        return _interrupted(cause)
    except (InputError, DictionaryError) as exc:
        error_line(str(exc))
        return EXIT_BAD_INPUT
    except OSError as exc:
        if exc.errno == errno.EPIPE:  # the reader of our output went away: nothing to say
            return 1
        # Unreadable or unwritable paths are input problems too.
        error_line(_os_error_message(exc))
        return EXIT_BAD_INPUT
    except ValueError as exc:
        # A path with a NUL byte, which the OS cannot take, is refused by
        # os functions with ValueError; any other ValueError is a bug to show.
        if "null" not in str(exc):
            raise
        error_line(f"a path or name holds a NUL character ({exc})")
        return EXIT_BAD_INPUT


def _interrupted(exc: BaseException) -> int:
    """Say which signal ended the run, in one line; later signals are ignored while the process exits."""
    print(f"mobius: {interruption(exc)}", file=sys.stderr, flush=True)
    settle()
    return EXIT_INTERRUPTED


def _interrupt_in(exc: BaseException) -> KeyboardInterrupt | None:
    """The KeyboardInterrupt among `exc` and its causes, if any."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return None


class MobiusGroup(TyperGroup):
    """The top-level group: runs a command with the one error policy above."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        hide_flag_types(self)
        code = run_command(self, prog_name or "mobius", list(sys.argv[1:] if args is None else args), extra)
        settle()  # the run is over; a signal now must not break the exit
        if standalone_mode:
            sys.exit(code)
        return code


def hide_flag_types(command: Any) -> None:
    """Show flags as flags in --help: typer labels each one `<bool>` as if it took a value."""
    for param in command.params:
        if getattr(param, "is_flag", False):
            param.metavar = ""
    help_option = command.get_help_option(Context(command))
    if help_option is not None:
        help_option.metavar = ""
    for sub in getattr(command, "commands", {}).values():
        hide_flag_types(sub)


def _version(shown: bool) -> None:
    """`mobius --version`: the installed package's version, then exit."""
    if shown:
        from mobius.generators.pack import tool_version  # the one reading of the version, as manifests record it

        typer.echo(f"mobius {tool_version()}")
        raise typer.Exit()


app = typer.Typer(
    cls=MobiusGroup,
    help="Puzzle generator: crosswords on surfaces and slider puzzles on graphs.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    # Plain help: typer's rich help loads rich and markdown-it, which alone
    # take longer than importing typer.
    rich_markup_mode=None,
)
@app.callback()
def _options(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                                   help="Print the version and exit.")] = False) -> None:
    """Puzzle generator: crosswords on surfaces and slider puzzles on graphs."""


app.add_typer(crossword_cli.app, name="crossword")
app.add_typer(slider_cli.app, name="slider")
app.add_typer(pack_cli.app, name="pack")
app.add_typer(clues_cli.app, name="clues")
app.command("render")(render_cli.render)
app.command("bench")(bench_cli.bench)
app.command("export-instance")(instance_cli.export_instance)


def main() -> None:
    """Entry point of the console script: bad input never shows a traceback."""
    app()
