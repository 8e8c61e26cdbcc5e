"""Evaluates a Core ML pipeline classifier from its specification, in numpy.

There is no Core ML runtime on Linux. This follows the semantics Apple's format
documents for the model types Benchbook writes (one-hot encoder, feature
vectorizer, imputer (a double array over NaN, a string over "", an int64 over Int64.min), scaler, GLM classifier, tree ensemble classifier, k-nearest
neighbours classifier, neural-network classifier with inner product,
multiply, concat, scale, reshape, reduce and softmax layers, and a plain neural network with the exact array
mapping, notEqual, concatND and inner product layers: the missing indicators), reading the file through coremltools'
own definitions, so the probabilities it gives are computed independently of
Benchbook's Swift interpreter. A reference check, not part of Benchbook.
"""

import numpy as np


def class_labels(model):
    """The classifier's labels as text, in its order."""
    kind = model.WhichOneof("Type")
    inner = getattr(model, kind)
    which = inner.WhichOneof("ClassLabels")
    values = getattr(inner, which).vector
    return [str(v) for v in values]


def predict(spec, rows):
    """Class probabilities of `rows` (a list of {input name: value}), one column per class label of the file."""
    features = {}
    for input_ in spec.description.input:
        features[input_.name] = [row[input_.name] for row in rows]
    kind = spec.WhichOneof("Type")
    if kind != "pipelineClassifier":
        raise ValueError(f"a {kind}, not the pipeline classifier Benchbook writes")
    models = spec.pipelineClassifier.pipeline.models
    for model in models:
        run(model, features, len(rows))
    classifier = models[-1]
    probabilities = features[classifier.description.predictedProbabilitiesName]
    labels = features.get("__classes__") or class_labels(classifier)
    return labels, probabilities


def run(model, features, n):
    kind = model.WhichOneof("Type")
    description = model.description
    inputs = [f.name for f in description.input]
    outputs = [f.name for f in description.output]
    if kind == "oneHotEncoder":
        encoder = model.oneHotEncoder
        which = encoder.WhichOneof("CategoryType")
        categories = [str(c) for c in getattr(encoder, which).vector]
        out = np.zeros((n, len(categories)))
        for r, value in enumerate(features[inputs[0]]):
            if str(value) in categories:
                out[r, categories.index(str(value))] = 1.0
            elif encoder.handleUnknown != 1:  # IgnoreUnknown leaves the row zero; else it is an error, as in Core ML
                raise ValueError(f"unknown category {value!r} for {inputs[0]}")
        features[outputs[0]] = out
    elif kind == "featureVectorizer":
        parts = []
        for column in model.featureVectorizer.inputList:
            value = np.asarray(features[column.inputColumn], dtype=float)
            parts.append(value.reshape(n, -1))
        features[outputs[0]] = np.concatenate(parts, axis=1)
    elif kind == "imputer":
        imputer = model.imputer
        replaced = imputer.WhichOneof("ReplaceValue")
        imputed = imputer.WhichOneof("ImputedValue")
        if imputed == "imputedDoubleArray" and replaced == "replaceDoubleValue":
            x = np.asarray(features[inputs[0]], dtype=float)
            fills = np.array(imputer.imputedDoubleArray.vector, dtype=float)
            target = imputer.replaceDoubleValue
            hit = np.isnan(x) if np.isnan(target) else x == target
            features[outputs[0]] = np.where(hit, fills[None, :], x)
        elif imputed == "imputedInt64Value" and replaced == "replaceInt64Value":
            target = imputer.replaceInt64Value
            features[outputs[0]] = [imputer.imputedInt64Value if int(v) == target else v for v in features[inputs[0]]]
        elif imputed == "imputedStringValue" and replaced == "replaceStringValue":
            target = imputer.replaceStringValue
            features[outputs[0]] = [imputer.imputedStringValue if v == target else v for v in features[inputs[0]]]
        else:
            raise ValueError(f"an imputer of {imputed} over {replaced} is not one Benchbook writes")
    elif kind == "scaler":
        x = np.asarray(features[inputs[0]], dtype=float)
        features[outputs[0]] = (x + np.array(model.scaler.shiftValue)) * np.array(model.scaler.scaleValue)
    elif kind == "glmClassifier":
        glm = model.glmClassifier
        x = np.asarray(features[inputs[0]], dtype=float)
        w = np.array([list(row.value) for row in glm.weights])
        scores = x @ w.T + np.array(glm.offset)
        if glm.classEncoding != 0 or glm.postEvaluationTransform != 0:
            raise ValueError("Benchbook writes reference-class GLMs with a logit transform")
        if w.shape[0] == 1:
            p1 = 1.0 / (1.0 + np.exp(-scores[:, 0]))
            probabilities = np.stack([1 - p1, p1], axis=1)
        else:
            full = np.concatenate([np.zeros((n, 1)), scores], axis=1)
            full -= full.max(axis=1, keepdims=True)
            e = np.exp(full)
            probabilities = e / e.sum(axis=1, keepdims=True)
        features[description.predictedProbabilitiesName] = probabilities
    elif kind == "treeEnsembleClassifier":
        features[description.predictedProbabilitiesName] = tree_ensemble(model, features[inputs[0]], n)
    elif kind == "kNearestNeighborsClassifier":
        probabilities, classes = neighbours(model, features[inputs[0]], n)
        features[description.predictedProbabilitiesName] = probabilities
        features["__classes__"] = classes
    elif kind == "neuralNetwork":
        network = model.neuralNetwork
        if network.arrayInputShapeMapping != 1:
            raise ValueError("Benchbook writes plain networks with the exact array mapping (EXACT_ARRAY_MAPPING = 1)")
        # Every input a vector: rank 1 per row, so [rows, d] here; float32, as Core ML computes on the CPU.
        blobs = {name: np.asarray(features[name], dtype=float).reshape(n, -1).astype(np.float32) for name in inputs}
        for layer in network.layers:
            which = layer.WhichOneof("layer")
            ins = [blobs[name] for name in layer.input]
            if which == "notEqual":
                other = ins[1] if len(ins) == 2 else np.float32(layer.notEqual.alpha)
                out = (ins[0] != other).astype(np.float32)  # NaN != NaN
            elif which == "concatND":
                if layer.concatND.axis not in (-1, 0):
                    raise ValueError(f"a concatND on axis {layer.concatND.axis} is not one Benchbook writes")
                out = np.concatenate(ins, axis=1)
            elif which == "innerProduct":
                p = layer.innerProduct
                w = np.array(p.weights.floatValue, dtype=np.float32).reshape(p.outputChannels, p.inputChannels)
                out = ins[0] @ w.T
                if p.hasBias:
                    out = out + np.array(p.bias.floatValue, dtype=np.float32)
            else:
                raise ValueError(f"layer type {which} is not one Benchbook writes in a plain network")
            blobs[layer.output[0]] = out.astype(np.float32)
        for name in outputs:
            features[name] = blobs[name].astype(float)
    elif kind == "neuralNetworkClassifier":
        network = model.neuralNetworkClassifier
        # Blobs are [rows, C, H, W]: up to specification version 3 Core ML maps a one-dimensional input of d
        # values to C = d, H = W = 1.
        x = np.asarray(features[inputs[0]], dtype=float).astype(np.float32)
        blobs = {inputs[0]: x.reshape(n, -1, 1, 1)}
        for layer in network.layers:
            which = layer.WhichOneof("layer")
            ins = [blobs[name] for name in layer.input]
            if which == "innerProduct":
                p = layer.innerProduct
                if ins[0].shape[2:] != (1, 1):
                    raise ValueError("an inner product over a blob with height or width is not one Benchbook writes")
                w = np.array(p.weights.floatValue, dtype=np.float32).reshape(p.outputChannels, p.inputChannels)
                out = ins[0][:, :, 0, 0] @ w.T
                if p.hasBias:
                    out = out + np.array(p.bias.floatValue, dtype=np.float32)
                out = out[:, :, None, None]
            elif which == "multiply":
                out = ins[0] * ins[1] if len(ins) == 2 else ins[0] * layer.multiply.alpha
            elif which == "concat":
                out = np.concatenate(ins, axis=1)
            elif which == "scale":
                p = layer.scale
                channels = ins[0].shape[1]

                def per_channel(shape, values, what):
                    if list(shape) not in ([1], [channels]) or len(values) != shape[0]:
                        raise ValueError(f"a scale layer's {what} of shape {list(shape)} is not one Benchbook writes")
                    return np.array(values, dtype=np.float32).reshape(1, -1, 1, 1)

                out = ins[0] * per_channel(p.shapeScale, p.scale.floatValue, "scale")
                if p.hasBias:
                    out = out + per_channel(p.shapeBias, p.bias.floatValue, "bias")
            elif which == "reshape":
                p = layer.reshape
                shape = list(p.targetShape)
                if p.mode != 0 or len(shape) not in (3, 4) or (len(shape) == 4 and shape[0] != 1):
                    raise ValueError(f"a reshape to {shape} (mode {p.mode}) is not one Benchbook writes")
                # CHANNEL_FIRST: the values keep their C, H, W order (numpy's C order here).
                out = ins[0].reshape(n, *shape[-3:])
            elif which == "reduce":
                p = layer.reduce
                axes = {0: (1, 2, 3), 1: (2, 3), 2: (1,), 3: (2,), 4: (3,)}[p.axis]
                if p.mode != 0:
                    raise ValueError(f"a reduction of mode {p.mode} is not one Benchbook writes (SUM = 0)")
                out = ins[0].sum(axis=axes, keepdims=True)
            elif which == "softmax":
                z = ins[0] - ins[0].max(axis=1, keepdims=True)
                e = np.exp(z)
                out = e / e.sum(axis=1, keepdims=True)
            else:
                raise ValueError(f"layer type {which} is not one Benchbook writes")
            blobs[layer.output[0]] = out.astype(np.float32)
        features[description.predictedProbabilitiesName] = blobs[network.labelProbabilityLayerName].reshape(n, -1).astype(float)
    else:
        raise ValueError(f"model type {kind} is not one Benchbook writes")


def tree_ensemble(model, x, n):
    trees = model.treeEnsembleClassifier
    parameters = trees.treeEnsemble
    nodes = {(node.treeId, node.nodeId): node for node in parameters.nodes}
    dimensions = parameters.numPredictionDimensions
    x = np.asarray(x, dtype=float)
    out = np.tile(np.array(parameters.basePredictionValue, dtype=float), (n, 1))
    roots = sorted({node.treeId for node in parameters.nodes})
    for r in range(n):
        for tree in roots:
            node = nodes[(tree, 0)]
            while node.nodeBehavior != 6:  # LeafNode
                value = x[r, node.branchFeatureIndex]
                threshold = node.branchFeatureValue
                behavior = node.nodeBehavior
                if np.isnan(value):
                    go = node.missingValueTracksTrueChild
                elif behavior == 0:
                    go = value <= threshold
                elif behavior == 1:
                    go = value < threshold
                else:
                    raise ValueError(f"branch behaviour {behavior} is not one Benchbook writes")
                node = nodes[(tree, node.trueChildNodeId if go else node.falseChildNodeId)]
            for info in node.evaluationInfo:
                out[r, info.evaluationIndex] += info.evaluationValue
    transform = trees.postEvaluationTransform
    if transform == 2:  # Regression_Logistic: one dimension, P(class 1) = sigma(sum)
        if dimensions != 1:
            raise ValueError("a logistic tree ensemble has one dimension")
        positive = 1 / (1 + np.exp(-out[:, 0]))
        return np.stack([1 - positive, positive], axis=1)
    if transform == 1:  # Classification_SoftMax: one dimension per class
        shifted = np.exp(out - out.max(axis=1, keepdims=True))
        return shifted / shifted.sum(axis=1, keepdims=True)
    if transform != 0:
        raise ValueError(f"post-evaluation transform {transform} is not one Benchbook writes")
    if dimensions == 1:
        return np.stack([1 - out[:, 0], out[:, 0]], axis=1)
    return out


def neighbours(model, x, n):
    knn = model.kNearestNeighborsClassifier
    index = knn.nearestNeighborsIndex
    samples = np.array([list(s.vector) for s in index.floatSamples], dtype=np.float32).astype(float)
    which = knn.WhichOneof("ClassLabels")
    labels = [str(v) for v in getattr(knn, which).vector]
    classes = list(dict.fromkeys(labels))
    k = knn.numberOfNeighbors.defaultValue
    weighting = knn.WhichOneof("WeightingScheme")
    x = np.asarray(x, dtype=float)
    out = np.zeros((n, len(classes)))
    for r in range(n):
        d2 = ((samples - x[r].astype(np.float32).astype(float)) ** 2).sum(axis=1)
        # The k nearest, equal distances in stored order: every row up to the k-th distance, stably sorted.
        kth = np.partition(d2, k - 1)[k - 1]
        candidates = np.nonzero(d2 <= kth)[0]
        order = candidates[np.argsort(d2[candidates], kind="stable")][:k]
        votes = np.ones(k)
        if weighting == "inverseDistanceWeighting":
            d = np.sqrt(d2[order])
            votes = np.where(d == 0, 1.0, 0.0) if (d == 0).any() else 1.0 / d
        for j, v in zip(order, votes):
            out[r, classes.index(labels[j])] += v
        out[r] /= out[r].sum()
    return out, classes
