// Stand-in for react-devtools-core in the bundle: coral never runs ink's devtools.
export default { initialize() {}, connectToDevTools() {} };
