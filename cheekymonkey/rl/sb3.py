"""The vector environment as Stable-Baselines3 takes it, masks included (the ``rl``, ``batched`` and ``sb3`` extras).

:class:`MaskableVecEnv` is a Stable-Baselines3 ``VecEnv`` over a
:class:`~cheekymonkey.rl.gymnasium_vector.SoloVectorEnv`: ``num_envs`` games on the batched engine, the learner
in one seat of each, batched bots in the others. It has the ``action_masks()`` that sb3-contrib's
``MaskablePPO`` asks of an environment, so a masked policy trains on it as it is::

    from sb3_contrib import MaskablePPO
    from cheekymonkey.rl.sb3 import MaskableVecEnv

    envs = MaskableVecEnv(256, players=2, opponents="random", seat=0)
    model = MaskablePPO("MlpPolicy", envs, seed=1).learn(100_000)

What it changes from the Gymnasium vector environment is only what Stable-Baselines3 expects of a ``VecEnv``:

- **Reset in the same step.** The step that ends an episode returns the first observation of the slot's next
  game (dealt at once with ``reset(options={"reset_mask": ...})``), its ``done`` True, and the last
  observation of the episode in ``infos[i]["terminal_observation"]``; ``infos[i]["TimeLimit.truncated"]``
  says the episode was cut off by a limit rather than ended by the game, so that PPO bootstraps its value.
- **One info dict per game**, with ``"episode"`` (``{"r", "l", "t"}``: its return, length and seconds, as
  SB3's ``Monitor`` gives them) where an episode ended, so the learner logs ``rollout/ep_rew_mean``; the
  learner's ``"seat"`` in every one, and ``"illegal"`` where an illegal action ended the episode.
- **Seeds and options as SB3 gives them**: ``seed(n)`` (or ``MaskablePPO(seed=n)``) seeds the next
  :meth:`MaskableVecEnv.reset`, which deals every game; the batched engine has one stream per game from it.

The masks never hold an all-False row: where a step ignores its action (an episode whose game ended before
the learner's first decision reports its end at the next step), every action is allowed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from stable_baselines3.common.vec_env import VecEnv
    from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn
except ImportError as error:
    raise ImportError(
        "cheekymonkey.rl.sb3 needs Stable-Baselines3, Gymnasium and numpy: pip install 'cheekymonkey[rl,batched,sb3]'"
    ) from error

from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.rl.gymnasium_vector import SoloVectorEnv

__all__ = ["MaskableVecEnv"]


class MaskableVecEnv(VecEnv):
    """A Stable-Baselines3 ``VecEnv`` of ``num_envs`` games, with ``action_masks()`` for ``MaskablePPO``.

    Args:
        envs: The number of games, to build a :class:`~cheekymonkey.rl.gymnasium_vector.SoloVectorEnv` with
            ``options`` (as ``gymnasium.make_vec("cheekymonkey/Solo-v0", num_envs=envs, **options)`` does); or
            one already built (by ``make_vec`` or the class; a Gymnasium wrapper around it is looked through).
        options: The vector environment's arguments (``players``, ``seat``, ``opponents``, ``game``, ...),
            only with a number of games.

    Raises:
        InvalidValueError: If ``envs`` is neither a positive number nor a ``SoloVectorEnv``, ``options``
            come with a built one, or an option is refused by ``SoloVectorEnv``.
    """

    def __init__(self, envs: int | SoloVectorEnv | gymnasium.vector.VectorEnv[Any, Any, Any], **options: Any) -> None:
        if isinstance(envs, gymnasium.vector.VectorEnv):
            inner = envs.unwrapped
            if not isinstance(inner, SoloVectorEnv):
                raise InvalidValueError(
                    f"envs must be a SoloVectorEnv or a number of games, got {type(inner).__name__}"
                )
            if options:
                raise InvalidValueError(
                    f"options {sorted(options)} go with a number of games, not a built SoloVectorEnv"
                )
        elif is_whole_number(envs):
            inner = SoloVectorEnv(int(envs), **options)
        else:
            raise InvalidValueError(f"envs must be a SoloVectorEnv or a number of games, got {envs!r}")
        self.envs: SoloVectorEnv = inner
        """The Gymnasium vector environment that plays the games."""
        super().__init__(inner.num_envs, inner.single_observation_space, inner.single_action_space)
        self._actions: npt.NDArray[np.int64] | None = None

    def reset(self) -> npt.NDArray[np.float32]:
        """Deal every game anew (seeded by the last ``seed(n)``, then unseeded) and return the observations."""
        seed = self._seeds[0]
        observations, info = self.envs.reset(seed=seed)
        self.reset_infos = self._infos(info)
        self._reset_seeds()
        self._reset_options()
        return observations

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        """Hold one action index per game for :meth:`step_wait`."""
        self._actions = np.asarray(actions)

    def step_wait(self) -> VecEnvStepReturn:
        """Play the held actions; where an episode ended, return the first observation of the slot's next game.

        Raises:
            InvalidValueError: Without actions held by :meth:`step_async`, or if they are not one index in
                range per game.
            IllegalActionError: For an illegal action, if the vector environment was built with
                ``illegal_action="raise"``.
        """
        if self._actions is None:
            raise InvalidValueError("step_wait() needs actions: call step_async(actions) or step(actions) first")
        actions, self._actions = self._actions, None
        if actions.ndim == 2 and actions.shape[1] == 1:  # a column of indices, as some policies give them
            actions = actions[:, 0]
        observations, rewards, terminated, truncated, info = self.envs.step(actions)
        done = terminated | truncated
        infos = self._infos(info)
        if done.any():
            ended = np.flatnonzero(done)
            for i in ended:
                infos[i]["terminal_observation"] = observations[i]
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            episodes = info["episode"]
            for i, r, length, t in zip(
                ended, episodes["r"][ended], episodes["l"][ended], episodes["t"][ended], strict=True
            ):
                infos[i]["episode"] = {"r": float(r), "l": int(length), "t": float(t)}
            observations, _ = self.envs.reset(options={"reset_mask": done})
        return observations, rewards, done, infos

    def action_masks(self) -> list[npt.NDArray[np.bool_]]:
        """Each game's mask of the action indices the learner may give now, never all False.

        A list of one row per game: sb3-contrib stacks the results of ``env_method("action_masks")``, one per
        game, and this is that method's answer too.
        """
        return list(self.envs.action_masks())

    def close(self) -> None:
        """Close the vector environment."""
        self.envs.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The vector environment's attribute ``attr_name``, once per game of ``indices``.

        Raises:
            AttributeError: If it has no such attribute (as SB3's ``has_attr`` expects).
        """
        if attr_name == "action_masks":
            value: Any = self.action_masks
        else:
            value = getattr(self.envs, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set the vector environment's attribute ``attr_name`` (shared by every game)."""
        setattr(self.envs, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks`` gives one mask per game of ``indices``; another method is the vector environment's.

        Raises:
            AttributeError: If the vector environment has no such method.
        """
        chosen = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in chosen]
        method = getattr(self.envs, method_name)
        result = method(*method_args, **method_kwargs)
        return [result for _ in chosen]

    def env_is_wrapped(
        self, wrapper_class: type[gymnasium.Wrapper[Any, Any, Any, Any]], indices: VecEnvIndices = None
    ) -> list[bool]:
        """False for each game: no Gymnasium wrapper is around the games."""
        return [False for _ in self._get_indices(indices)]

    def _get_indices(self, indices: VecEnvIndices) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        chosen: Sequence[int] = [indices] if isinstance(indices, int) else list(indices)
        for index in chosen:
            if not is_whole_number(index) or not 0 <= int(index) < self.num_envs:
                raise InvalidValueError(f"index {index!r} is not one of the {self.num_envs} games")
        return chosen

    def _infos(self, info: dict[str, Any]) -> list[dict[str, Any]]:
        seats = info["seat"].tolist()
        infos: list[dict[str, Any]] = [{"seat": seat} for seat in seats]
        illegal = info["illegal"]
        if illegal.any():
            for i in np.flatnonzero(illegal):
                infos[i]["illegal"] = True
        return infos
