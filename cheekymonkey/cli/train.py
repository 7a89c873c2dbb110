"""``cheekymonkey train``: from the batched engine to a weights file that plays as a bot, then its evaluation.

A thin layer over :func:`cheekymonkey.training.train_weights` and :func:`cheekymonkey.training.evaluate`
(the ``train`` and ``batched`` extras). The progress bar goes to standard error (plain lines when it is not a
terminal); the plan, the file written (with its SHA-256) and the evaluation's line go to standard output.
Exit status: 0 when done (or stopped by ``--stop-after`` after a checkpoint), 2 for options that do not fit,
130 when stopped by Ctrl-C (the latest checkpoint is kept, ``--resume`` goes on from it).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from cheekymonkey.cli.options import OptionError, add_game_option, number_type, output_path, positive_int

__all__ = ["add_arguments", "run"]

_seed_type = number_type(int, 0, 2**32 - 1, what="a seed")
_budget_type = number_type(float, 0, 1000, what="a budget", above=True)
_games_type = number_type(int, 0, what="a number of games")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    add_game_option(parser, what="the game whose network to train (a game with a training recipe)")
    parser.add_argument("--out", metavar="FILE", type=output_path, required=True, help="the weights file to write")
    parser.add_argument(
        "--seed", type=_seed_type, default=0, help="seeds every game and draw of the run: 0 is the shipped weights'"
    )
    parser.add_argument(
        "--budget",
        type=_budget_type,
        default=1.0,
        help="the share of the recipe's examples and updates (default 1, the recipe of the shipped weights; "
        "0.01 is a hundredth of it)",
    )
    parser.add_argument("--checkpoint-dir", metavar="DIR", type=Path, default=None, help="write checkpoints here")
    parser.add_argument(
        "--checkpoint-every",
        metavar="N",
        type=positive_int,
        default=1,
        help="epochs (passes over the examples) between checkpoints (default 1)",
    )
    parser.add_argument(
        "--resume", action="store_true", help="go on from the latest checkpoint in --checkpoint-dir (same seed, budget)"
    )
    parser.add_argument(
        "--stop-after",
        metavar="N",
        type=positive_int,
        default=None,
        help="stop after writing the Nth checkpoint (counted over the whole run), to resume later",
    )
    parser.add_argument("--opponent", default=None, help="the evaluation's opponent (default: the declared one)")
    parser.add_argument(
        "--eval-games",
        metavar="N",
        type=_games_type,
        default=None,
        help="evaluation games (default: the declared count; 0: none)",
    )
    parser.add_argument(
        "--eval-seed",
        metavar="SEED",
        type=_seed_type,
        default=None,
        help="the evaluation's first seed (default: the declared one)",
    )
    parser.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        help="local processes for the evaluation; with --address ray, Ray's CPUs",
    )
    parser.add_argument(
        "--address",
        metavar="ADDR",
        default=None,
        help="play the evaluation on Ray (ray: a local instance; auto or ray://HOST:PORT: a cluster) or on a Dask "
        "scheduler (tcp://HOST:PORT)",
    )


def run(args: argparse.Namespace) -> int:
    """Train, write the weights, and play the evaluation; see the module's docs for the exit status."""
    from cheekymonkey.errors import InvalidValueError
    from cheekymonkey.games import game_named
    from cheekymonkey.training import (
        Evaluation,
        Progress,
        TrainingOptions,
        TrainingStoppedError,
        declared_evaluation,
        evaluate,
        recipe_games,
        train_weights,
    )

    recipes = recipe_games()
    if args.game not in recipes:
        raise OptionError(f"--game {args.game}: no training recipe; the games with one are {', '.join(recipes)}")
    if args.resume and args.checkpoint_dir is None:
        raise OptionError("--resume needs --checkpoint-dir: the folder to resume from")
    if args.stop_after is not None and args.checkpoint_dir is None:
        raise OptionError("--stop-after needs --checkpoint-dir: a stopped run resumes from its checkpoints")
    if args.checkpoint_dir is not None and args.checkpoint_dir.exists() and not args.checkpoint_dir.is_dir():
        raise OptionError(f"--checkpoint-dir {args.checkpoint_dir}: a file, not a folder")
    game = game_named(args.game)
    declared = declared_evaluation(args.game)
    opponent = declared.opponent if args.opponent is None else args.opponent.strip().lower()
    if opponent not in game.bot_names():
        raise OptionError(f"--opponent {opponent}: {game.title}'s bots are {', '.join(game.bot_names())}")
    evaluation = Evaluation(
        opponent,
        declared.games if args.eval_games is None else args.eval_games,
        declared.seed if args.eval_seed is None else args.eval_seed,
    )
    address = args.address
    if address is not None and not (address in ("ray", "auto") or address.startswith(("ray://", "tcp://"))):
        raise OptionError(
            f"--address {address}: give ray (a local Ray instance), auto or ray://HOST:PORT (a Ray cluster), or "
            "tcp://HOST:PORT (a Dask scheduler)"
        )
    if address is None and args.workers is not None and evaluation.games == 0:
        raise OptionError("--workers plays the evaluation's games, and --eval-games 0 plays none")
    options = TrainingOptions(
        game=args.game,
        seed=args.seed,
        budget=args.budget,
        checkpoint_dir=args.checkpoint_dir,
        checkpoint_every=args.checkpoint_every,
        resume=args.resume,
        stop_after=args.stop_after,
    )
    print(f"Training a network for {game.title}, seed {args.seed}, budget {args.budget:g}; writing {args.out}.")
    progress = Progress(sys.stderr)
    try:
        train_weights(options, args.out, progress)
    except TrainingStoppedError as stopped:
        progress.finish()
        print(str(stopped))
        return 0
    except InvalidValueError as error:
        progress.finish()
        raise OptionError(str(error)) from None
    except KeyboardInterrupt:
        progress.finish()
        where = f"; --resume goes on from the latest checkpoint in {args.checkpoint_dir}" if args.checkpoint_dir else ""
        print(f"cheekymonkey train: stopped{where}", file=sys.stderr)
        return 130
    digest = hashlib.sha256(args.out.read_bytes()).hexdigest()
    print(f"wrote {args.out}: SHA-256 {digest}")
    if evaluation.games == 0:
        print("evaluation: none (--eval-games 0)")
        return 0
    last = evaluation.seed + evaluation.games - 1
    try:
        summary = evaluate(args.out, evaluation, workers=args.workers, address=args.address)
    except InvalidValueError as error:
        raise OptionError(str(error)) from None
    except (OSError, TimeoutError) as error:
        print(f"cheekymonkey train: cannot reach {args.address}: {error}", file=sys.stderr)
        return 2
    mine = summary.bots[0]
    print(
        f"evaluation: the trained bot against {opponent}, {summary.games} games at 2 seats, seeds {evaluation.seed} "
        f"to {last}, seats rotated: won {mine.wins:g}, {mine.win_rate:.1%} (95% interval {mine.low:.1%} - "
        f"{mine.high:.1%})" + (f", {summary.truncated} truncated" if summary.truncated else "")
    )
    return 0
