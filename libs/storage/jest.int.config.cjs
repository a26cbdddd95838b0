module.exports = { ...require('../../jest.int.preset.cjs'), displayName: 'storage:int', rootDir: __dirname };
