# GENERATED from shared/paperscore/distributed.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""States across torch.distributed ranks (paperscore.state.all_reduce): kept apart from
state.py, which the Spaces carry, so that no Space's code names torch."""


def all_reduce(state, group=None):
    """The state of every rank merged (in rank order), returned on every rank: an
    all-gather of each rank's to_dict() (torch.distributed.all_gather_object; gloo on CPU
    or NCCL). Every rank must call it, with states of equal options. Without a process
    group there is nothing to gather: the state itself is returned."""
    import torch.distributed as dist

    from .paperscore_state import from_dict, merge

    if not (dist.is_available() and dist.is_initialized()):
        return state
    gathered = [None] * dist.get_world_size(group)
    dist.all_gather_object(gathered, state.to_dict(), group=group)
    return merge(*(from_dict(data) for data in gathered))
