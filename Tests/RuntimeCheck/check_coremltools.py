"""Parses Core ML model files with Apple's own definitions (coremltools).

An external check for CI, not part of Benchbook: Benchbook writes .mlmodel
files with its own protobuf encoder, and this script reads each one with
`coremltools.utils.load_spec`, then walks every message and fails on any field
Apple's definitions do not know (a wrong field number parses silently as an
unknown field otherwise). It prints each file's model type, specification
version, pipeline stages, inputs and outputs.

Usage (after `pip install coremltools`):
    python3 check_coremltools.py FILE.mlmodel [FILE.mlmodel ...]
Exit status: 0 when every file parses cleanly, 1 otherwise.
"""

import sys

import coremltools
from google.protobuf import unknown_fields


def unknown(message, path):
    """Paths of every message holding fields its definition does not declare."""
    found = []
    if len(unknown_fields.UnknownFieldSet(message)) > 0:
        found.append(path or "Model")
    for field, value in message.ListFields():
        if field.type != field.TYPE_MESSAGE:
            continue
        if field.message_type.GetOptions().map_entry:
            items = value.values() if hasattr(value, "values") else []
            for item in items:
                if hasattr(item, "ListFields"):
                    found += unknown(item, f"{path}.{field.name}")
        elif is_repeated(field):
            for i, item in enumerate(value):
                found += unknown(item, f"{path}.{field.name}[{i}]")
        else:
            found += unknown(value, f"{path}.{field.name}" if path else field.name)
    return found


def is_repeated(field):
    """protobuf 5+ says `is_repeated`; older releases only have `label`."""
    repeated = getattr(field, "is_repeated", None)
    return repeated if repeated is not None else field.label == field.LABEL_REPEATED


def feature_type(feature):
    kind = feature.type.WhichOneof("Type")
    if kind == "multiArrayType":
        array = feature.type.multiArrayType
        data_type = coremltools.proto.FeatureTypes_pb2.ArrayFeatureType.ArrayDataType.Name(array.dataType)
        return f"multiArray({data_type}, {list(array.shape)})"
    if kind == "dictionaryType":
        return f"dictionary({feature.type.dictionaryType.WhichOneof('KeyType')})"
    return kind


def check(path):
    spec = coremltools.utils.load_spec(path)
    kind = spec.WhichOneof("Type")
    if kind is None:
        raise ValueError("no model in the file")
    problems = unknown(spec, "")
    if problems:
        raise ValueError("fields unknown to coremltools at " + ", ".join(problems[:5]))
    print(f"{path}: {kind}, specificationVersion {spec.specificationVersion}, updatable {spec.isUpdatable}")
    if kind in ("pipelineClassifier", "pipeline"):
        pipeline = spec.pipelineClassifier.pipeline if kind == "pipelineClassifier" else spec.pipeline
        for name, model in zip(pipeline.names, pipeline.models):
            inner = model.WhichOneof("Type")
            if model.specificationVersion > spec.specificationVersion:
                raise ValueError(f"stage {name} needs version {model.specificationVersion}, above the file's")
            print(f"  stage {name}: {inner}, specificationVersion {model.specificationVersion}")
    for feature in spec.description.input:
        print(f"  input {feature.name}: {feature_type(feature)}")
    for feature in spec.description.output:
        print(f"  output {feature.name}: {feature_type(feature)}")


def main(paths):
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 1
    failed = 0
    for path in paths:
        try:
            check(path)
        except Exception as error:  # any parse or check failure fails the run
            print(f"{path}: FAILED: {error}", file=sys.stderr)
            failed += 1
    print(f"coremltools {coremltools.__version__}: {len(paths) - failed} of {len(paths)} files parse cleanly")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
