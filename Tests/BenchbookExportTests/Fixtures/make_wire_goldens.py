"""Writes wire-*.mlmodel: small Core ML models serialized by Apple's own
protobuf definitions (coremltools' Model_pb2), covering every message and
field Benchbook's encoder writes. WireGoldenTests builds the same models with
Benchbook's message types and expects the same bytes.

Command that produced the committed files (run from this folder, coremltools 9.0):
    python3 make_wire_goldens.py
"""

from coremltools.proto import FeatureTypes_pb2, Model_pb2

DOUBLE = FeatureTypes_pb2.ArrayFeatureType.DOUBLE


def feature(description, name, kind, text="", shape=None, keys=None):
    f = description.add()
    f.name = name
    f.shortDescription = text
    if kind == "double":
        f.type.doubleType.SetInParent()
    elif kind == "int64":
        f.type.int64Type.SetInParent()
    elif kind == "string":
        f.type.stringType.SetInParent()
    elif kind == "array":
        f.type.multiArrayType.shape.extend(shape)
        f.type.multiArrayType.dataType = DOUBLE
    elif kind == "dictionary":
        if keys == "int64":
            f.type.dictionaryType.int64KeyType.SetInParent()
        else:
            f.type.dictionaryType.stringKeyType.SetInParent()
    return f


def save(model, name):
    with open(name, "wb") as out:
        out.write(model.SerializeToString(deterministic=True))


# A pipeline: two one-hot encoders, a vectorizer, a scaler and a GLM with negative int64 labels.
pipeline = Model_pb2.Model()
pipeline.specificationVersion = 1
d = pipeline.description
feature(d.input, "colour", "string", "One of: blue, red.")
feature(d.input, "count", "int64")
feature(d.input, "size", "double", "Numeric.")
feature(d.output, "classLabel", "int64", "The class.")
feature(d.output, "classProbability", "dictionary", keys="int64")
d.predictedFeatureName = "classLabel"
d.predictedProbabilitiesName = "classProbability"
d.metadata.shortDescription = "A golden pipeline."
d.metadata.versionString = "Benchbook test"
d.metadata.author = "Benchbook"
d.metadata.userDefined["zeta"] = "last"
d.metadata.userDefined["alpha"] = "first"
models = pipeline.pipelineClassifier.pipeline
encoder = models.models.add()
encoder.specificationVersion = 1
feature(encoder.description.input, "colour", "string", "One of: blue, red.")
feature(encoder.description.output, "colourOneHot", "array", shape=[2])
encoder.oneHotEncoder.stringCategories.vector.extend(["blue", "red"])
encoder2 = models.models.add()
encoder2.specificationVersion = 1
feature(encoder2.description.input, "count", "int64")
feature(encoder2.description.output, "countOneHot", "array", shape=[3])
encoder2.oneHotEncoder.int64Categories.vector.extend([-3, 0, 300])
encoder2.oneHotEncoder.handleUnknown = 1
vectorizer = models.models.add()
vectorizer.specificationVersion = 1
feature(vectorizer.description.input, "colourOneHot", "array", shape=[2])
feature(vectorizer.description.input, "countOneHot", "array", shape=[3])
feature(vectorizer.description.input, "size", "double", "Numeric.")
feature(vectorizer.description.output, "features", "array", shape=[6])
for column, dimensions in [("colourOneHot", 2), ("countOneHot", 3), ("size", 1)]:
    entry = vectorizer.featureVectorizer.inputList.add()
    entry.inputColumn = column
    entry.inputDimensions = dimensions
scaler = models.models.add()
scaler.specificationVersion = 1
feature(scaler.description.input, "features", "array", shape=[6])
feature(scaler.description.output, "scaled", "array", shape=[6])
scaler.scaler.shiftValue.extend([0.0, -0.5, 1.25, -0.0, 3.0, -1e300])
scaler.scaler.scaleValue.extend([1.0, 2.0, 0.5, 4.0, 1e-300, 7.0])
glm = models.models.add()
glm.specificationVersion = 1
feature(glm.description.input, "scaled", "array", shape=[6])
feature(glm.description.output, "classLabel", "int64", "The class.")
feature(glm.description.output, "classProbability", "dictionary", keys="int64")
glm.description.predictedFeatureName = "classLabel"
glm.description.predictedProbabilitiesName = "classProbability"
for row in ([0.5, -1.0, 0.0, 2.0, 3.5, -0.25], [1.0, 0.0, -2.0, 0.125, 0.0, 9.0]):
    glm.glmClassifier.weights.add().value.extend(row)
glm.glmClassifier.offset.extend([0.1, -0.2])
glm.glmClassifier.int64ClassLabels.vector.extend([-1, 0, 7])
models.names.extend(["oneHot_colour", "oneHot_count", "featureVectorizer", "scaler", "glmClassifier"])
save(pipeline, "wire-pipeline.mlmodel")

# A tree ensemble: every branch mode, a leaf adding to two dimensions, hit rates.
tree = Model_pb2.Model()
tree.specificationVersion = 1
feature(tree.description.input, "x", "array", shape=[2])
feature(tree.description.output, "label", "string")
feature(tree.description.output, "probabilities", "dictionary", keys="string")
tree.description.predictedFeatureName = "label"
tree.description.predictedProbabilitiesName = "probabilities"
parameters = tree.treeEnsembleClassifier.treeEnsemble
parameters.numPredictionDimensions = 3
parameters.basePredictionValue.extend([0.0, 0.5, -0.5])
for node_id, behaviour, index, value, true_child, false_child, missing in [
    (0, 0, 1, 2.5, 1, 2, True),
    (1, 1, 0, -1.0, 3, 4, False),
    (2, 5, 0, 0.0, 5, 6, True),
]:
    node = parameters.nodes.add()
    node.treeId = 0
    node.nodeId = node_id
    node.nodeBehavior = behaviour
    node.branchFeatureIndex = index
    node.branchFeatureValue = value
    node.trueChildNodeId = true_child
    node.falseChildNodeId = false_child
    node.missingValueTracksTrueChild = missing
    node.relativeHitRate = 1.0 / (node_id + 1)
for node_id, values in [(3, [(0, 1.0)]), (4, [(1, 0.25), (2, 0.75)]), (5, [(2, 1.0)]), (6, [(0, 0.0)])]:
    node = parameters.nodes.add()
    node.treeId = 0
    node.nodeId = node_id
    node.nodeBehavior = 6
    for index, value in values:
        info = node.evaluationInfo.add()
        info.evaluationIndex = index
        info.evaluationValue = value
tree.treeEnsembleClassifier.postEvaluationTransform = 1
tree.treeEnsembleClassifier.stringClassLabels.vector.extend(["a", "b", "c"])
save(tree, "wire-tree.mlmodel")

# An updatable kNN: kd-tree, neighbour range, int64 labels and default label, inverse distance.
knn = Model_pb2.Model()
knn.specificationVersion = 4
knn.isUpdatable = True
feature(knn.description.input, "x", "array", shape=[2])
feature(knn.description.output, "label", "int64")
feature(knn.description.output, "probabilities", "dictionary", keys="int64")
feature(knn.description.trainingInput, "x", "array", shape=[2])
feature(knn.description.trainingInput, "label", "int64", "The true label.")
knn.description.predictedFeatureName = "label"
knn.description.predictedProbabilitiesName = "probabilities"
index = knn.kNearestNeighborsClassifier.nearestNeighborsIndex
index.numberOfDimensions = 2
for sample in ([0.5, -1.5], [2.0, 0.0], [-3.25, 1e-3]):
    index.floatSamples.add().vector.extend(sample)
index.singleKdTreeIndex.leafSize = 30
index.squaredEuclideanDistance.SetInParent()
knn.kNearestNeighborsClassifier.numberOfNeighbors.defaultValue = 2
knn.kNearestNeighborsClassifier.numberOfNeighbors.range.minValue = 1
knn.kNearestNeighborsClassifier.numberOfNeighbors.range.maxValue = 1000
knn.kNearestNeighborsClassifier.int64ClassLabels.vector.extend([0, 1, 1])
knn.kNearestNeighborsClassifier.defaultInt64Label = -2
knn.kNearestNeighborsClassifier.inverseDistanceWeighting.SetInParent()
save(knn, "wire-knn.mlmodel")

# A kNN with a linear index, a neighbour set, string labels, an empty default label, uniform votes.
knn2 = Model_pb2.Model()
knn2.specificationVersion = 4
feature(knn2.description.input, "x", "array", shape=[1])
feature(knn2.description.output, "label", "string")
knn2.description.predictedFeatureName = "label"
index = knn2.kNearestNeighborsClassifier.nearestNeighborsIndex
index.numberOfDimensions = 1
for sample in ([1.0], [0.0]):
    index.floatSamples.add().vector.extend(sample)
index.linearIndex.SetInParent()
index.squaredEuclideanDistance.SetInParent()
knn2.kNearestNeighborsClassifier.numberOfNeighbors.defaultValue = 1
knn2.kNearestNeighborsClassifier.numberOfNeighbors.set.values.extend([1])
knn2.kNearestNeighborsClassifier.stringClassLabels.vector.extend(["yes", ""])
knn2.kNearestNeighborsClassifier.defaultStringLabel = ""
knn2.kNearestNeighborsClassifier.uniformWeighting.SetInParent()
save(knn2, "wire-knn-linear.mlmodel")

# A neural-network classifier with the four layer kinds Benchbook writes.
network = Model_pb2.Model()
network.specificationVersion = 1
feature(network.description.input, "x", "array", shape=[2])
feature(network.description.output, "label", "string")
feature(network.description.output, "probabilities", "dictionary", keys="string")
network.description.predictedFeatureName = "label"
network.description.predictedProbabilitiesName = "probabilities"
nn = network.neuralNetworkClassifier
layer = nn.layers.add()
layer.name = "half"
layer.input.append("x")
layer.output.append("h")
layer.multiply.alpha = 0.5
layer = nn.layers.add()
layer.name = "squares"
layer.input.extend(["x", "x"])
layer.output.append("s")
layer.multiply.SetInParent()
layer = nn.layers.add()
layer.name = "expand"
layer.input.extend(["h", "s"])
layer.output.append("e")
layer.concat.SetInParent()
layer = nn.layers.add()
layer.name = "scores"
layer.input.append("e")
layer.output.append("z")
layer.innerProduct.inputChannels = 4
layer.innerProduct.outputChannels = 2
layer.innerProduct.hasBias = True
layer.innerProduct.weights.floatValue.extend([1.0, -2.0, 0.5, 0.0, -0.25, 3.0, 1e-7, -1e7])
layer.innerProduct.bias.floatValue.extend([0.0, -1.5])
layer = nn.layers.add()
layer.name = "softmax"
layer.input.append("z")
layer.output.append("p")
layer.softmax.SetInParent()
nn.stringClassLabels.vector.extend(["no", "yes"])
nn.labelProbabilityLayerName = "p"
save(network, "wire-network.mlmodel")

# A neural-network classifier with the reshape and reduce layers of naive Bayes, a scale layer whose scale and bias
# have different shapes, and a reduction with a non-default mode, axis and epsilon.
network = Model_pb2.Model()
network.specificationVersion = 1
feature(network.description.input, "x", "array", shape=[4])
feature(network.description.output, "label", "string")
feature(network.description.output, "probabilities", "dictionary", keys="string")
network.description.predictedFeatureName = "label"
network.description.predictedProbabilitiesName = "probabilities"
nn = network.neuralNetworkClassifier
layer = nn.layers.add()
layer.name = "mean"
layer.input.append("x")
layer.output.append("m")
layer.reduce.mode = 1  # AVG
layer.reduce.axis = 0  # CHW
layer.reduce.epsilon = 1e-6
layer = nn.layers.add()
layer.name = "shift"
layer.input.append("x")
layer.output.append("d")
layer.scale.shapeScale.extend([4])
layer.scale.scale.floatValue.extend([1.0, -2.0, 0.5, 3.0])
layer.scale.hasBias = True
layer.scale.shapeBias.extend([1])
layer.scale.bias.floatValue.extend([-0.25])
layer = nn.layers.add()
layer.name = "perClass"
layer.input.append("d")
layer.output.append("r")
layer.reshape.targetShape.extend([2, 1, 2])
layer = nn.layers.add()
layer.name = "sums"
layer.input.append("r")
layer.output.append("s")
layer.reduce.axis = 4  # W; mode SUM, the default
layer = nn.layers.add()
layer.name = "scores"
layer.input.append("s")
layer.output.append("z")
layer.scale.shapeScale.extend([1])
layer.scale.scale.floatValue.extend([-1.0])
layer.scale.hasBias = True
layer.scale.shapeBias.extend([2])
layer.scale.bias.floatValue.extend([0.5, -1.5])
layer = nn.layers.add()
layer.name = "softmax"
layer.input.append("z")
layer.output.append("p")
layer.softmax.SetInParent()
nn.stringClassLabels.vector.extend(["no", "yes"])
nn.labelProbabilityLayerName = "p"
save(network, "wire-network-reduce.mlmodel")
